import { useTranslation } from "react-i18next";
import { Form, useLocation } from "react-router";
import { useRootData } from "~/utils/root-data";
import { defaultThemeSettings, themeColors } from "~/utils/theme";
import { useCloseOnNavigate } from "~/utils/use-close-on-navigate";

/** A <details> disclosure with a plain form: opens and saves without JavaScript. */
export function ThemeSettingsPanel() {
  const menuRef = useCloseOnNavigate();
  const { t } = useTranslation();
  const location = useLocation();
  const theme = useRootData()?.theme ?? defaultThemeSettings;
  return (
    <details ref={menuRef} className="relative">
      <summary className="cursor-pointer list-none rounded px-2 py-1 text-sm hover:bg-line/60">
        {t("theme.open")}
      </summary>
      <Form
        method="post"
        action="/resources/theme"
        className="absolute end-0 z-40 mt-2 flex w-64 flex-col gap-3 rounded-lg border border-line bg-panel p-4 shadow-xl"
      >
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <fieldset className="flex gap-3">
          <legend className="mb-1 text-sm font-semibold">{t("theme.mode")}</legend>
          {(["light", "dark"] as const).map((mode) => (
            <label key={mode} className="flex items-center gap-1 text-sm">
              <input type="radio" name="mode" value={mode} defaultChecked={theme.mode === mode} />
              {t(`theme.modes.${mode}`)}
            </label>
          ))}
        </fieldset>
        <fieldset className="flex gap-3">
          <legend className="mb-1 text-sm font-semibold">{t("theme.direction")}</legend>
          {(["ltr", "rtl"] as const).map((direction) => (
            <label key={direction} className="flex items-center gap-1 text-sm">
              <input type="radio" name="direction" value={direction} defaultChecked={theme.direction === direction} />
              {t(`theme.directions.${direction}`)}
            </label>
          ))}
        </fieldset>
        <fieldset className="grid grid-cols-3 gap-2">
          <legend className="mb-1 text-sm font-semibold">{t("theme.color")}</legend>
          {themeColors.map((color) => (
            <label key={color} className="flex items-center gap-1 text-sm">
              <input type="radio" name="color" value={color} defaultChecked={theme.color === color} />
              <span className="swatch inline-block h-3 w-3 rounded-full" data-swatch={color} aria-hidden="true" />
              {t(`theme.colors.${color}`)}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="btn-primary">
          {t("theme.save")}
        </button>
      </Form>
    </details>
  );
}
