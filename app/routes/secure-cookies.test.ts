import { describe, expect, it } from "vitest";
import { flashToast } from "~/services/toast.server";
import { makeTestContext, routeArgs } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { action as chooseLanguage } from "./resources.language";
import { action as chooseTheme } from "./resources.theme";

// Under an https APP_URL every cookie we set is Secure (toast, settings and lng were not);
// under http (development, the embedded default) none is, or the browser would drop them.
const database = useTestDatabase();

const post = (path: string, fields: Record<string, string>) =>
  new Request(new URL(path, "http://localhost:3000"), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin" },
    body: new URLSearchParams(fields),
  });

async function cookiesSet(appUrl: string) {
  const context = makeTestContext(database, { APP_URL: appUrl });
  // Both answer with a redirect carrying the cookies.
  const language = await chooseLanguage({
    request: post("/resources/language", { lng: "hi" }),
    context,
    params: {},
    ...routeArgs,
  });
  const theme = await chooseTheme({
    request: post("/resources/theme", { mode: "dark" }),
    context,
    params: {},
    ...routeArgs,
  });
  const toast = await flashToast(post("/", {}), context, { type: "success", key: "toast.settingsSaved" });
  return [...language.headers.getSetCookie(), ...theme.headers.getSetCookie(), toast];
}

const nameOf = (cookie: string) => cookie.split("=")[0];
const secure = (cookie: string) => /;\s*Secure(;|$)/i.test(cookie);

describe("cookies and https", () => {
  it("marks lng, settings and toast Secure when APP_URL is https", async () => {
    const cookies = await cookiesSet("https://heirloom.example");
    expect(cookies.map(nameOf).sort()).toEqual(["lng", "settings", "toast", "toast"]);
    expect(cookies.filter((cookie) => !secure(cookie)).map(nameOf)).toEqual([]);
  });

  it("leaves them plain under http, where a browser would drop a Secure cookie", async () => {
    const cookies = await cookiesSet("http://localhost:3000");
    expect(cookies.filter(secure).map(nameOf)).toEqual([]);
  });
});
