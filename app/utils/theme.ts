// Shared by the browser and the server; the zod schema lives in theme.server.ts to keep zod out of
// the pages that have no forms.
export const themeColors = ["default", "purple", "cyan", "blue", "orange", "red"] as const;
export const themeModes = ["light", "dark"] as const;
/** How large the text is: the root font size, so every rem-sized thing grows with it. */
export const themeTextSizes = ["normal", "large", "largest"] as const;

export type ThemeSettings = {
  mode: (typeof themeModes)[number];
  textSize: (typeof themeTextSizes)[number];
  color: (typeof themeColors)[number];
};

export const defaultThemeSettings: ThemeSettings = { mode: "light", textSize: "normal", color: "default" };
