import { createCookie } from "react-router";
import { z } from "zod";
import { type Config, servesHttps } from "~/config.server";
import { defaultThemeSettings, type ThemeSettings, themeColors, themeModes, themeTextSizes } from "./theme";

/** Unknown or missing values fall back to the defaults instead of failing. */
export const themeSettingsSchema = z.object({
  mode: z.enum(themeModes).catch(defaultThemeSettings.mode),
  textSize: z.enum(themeTextSizes).catch(defaultThemeSettings.textSize),
  color: z.enum(themeColors).catch(defaultThemeSettings.color),
});

/** Display preferences only (no secrets), read by the server so the first paint is already right. */
const settingsCookie = createCookie("settings", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

export async function getThemeSettings(request: Request): Promise<ThemeSettings> {
  const raw = await settingsCookie.parse(request.headers.get("Cookie"));
  const parsed = themeSettingsSchema.safeParse(raw ?? {});
  return parsed.success ? parsed.data : defaultThemeSettings;
}

export function serializeThemeSettings(settings: ThemeSettings, config: Pick<Config, "APP_URL">): Promise<string> {
  return settingsCookie.serialize(settings, { secure: servesHttps(config) });
}
