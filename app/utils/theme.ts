// Shared by the browser and the server; the zod schema lives in theme.server.ts to keep zod out of
// the pages that have no forms.
export const themeColors = ["default", "purple", "cyan", "blue", "orange", "red"] as const;
export const themeModes = ["light", "dark"] as const;
export const themeDirections = ["ltr", "rtl"] as const;

export type ThemeSettings = {
  mode: (typeof themeModes)[number];
  direction: (typeof themeDirections)[number];
  color: (typeof themeColors)[number];
};

export const defaultThemeSettings: ThemeSettings = { mode: "light", direction: "ltr", color: "default" };
