import { useTranslation } from "react-i18next";
import { Form, useLocation } from "react-router";
import { useRootData } from "~/utils/root-data";
import { defaultThemeSettings, themeColors, themeTextSizes } from "~/utils/theme";
import { useCloseOnNavigate } from "~/utils/use-close-on-navigate";

/** A <details> disclosure with a plain form: opens and saves without JavaScript. */
export function ThemeSettingsPanel() {
  const menuRef = useCloseOnNavigate();
  const { t } = useTranslation();
  const location = useLocation();
  const theme = useRootData()?.theme ?? defaultThemeSettings;
  return (
    <details ref={menuRef} className="relative max-sm:static">
      <summary className="flex min-h-11 cursor-pointer list-none items-center rounded px-2 text-sm hover:bg-line/60">
        {t("theme.open")}
      </summary>
      <Form
        method="post"
        action="/resources/theme"
        className="absolute end-0 z-40 mt-2 flex w-64 flex-col gap-3 rounded-lg border border-line bg-panel p-4 shadow-xl max-sm:inset-x-2 max-sm:top-full max-sm:mt-1 max-sm:w-auto"
      >
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <fieldset className="flex flex-wrap gap-x-4">
          <legend className="mb-1 text-sm font-semibold">{t("theme.mode")}</legend>
          {(["light", "dark"] as const).map((mode) => (
            <label key={mode} className="flex min-h-11 items-center gap-2 text-sm">
              <input type="radio" name="mode" value={mode} defaultChecked={theme.mode === mode} />
              {t(`theme.modes.${mode}`)}
            </label>
          ))}
        </fieldset>
        <fieldset className="flex flex-wrap gap-x-4">
          <legend className="mb-1 text-sm font-semibold">{t("theme.textSize")}</legend>
          {themeTextSizes.map((size) => (
            <label key={size} className="flex min-h-11 items-center gap-2 text-sm">
              <input type="radio" name="textSize" value={size} defaultChecked={theme.textSize === size} />
              {t(`theme.textSizes.${size}`)}
            </label>
          ))}
        </fieldset>
        {/* The grid is inside the fieldset: a grid fieldset laid its legend over "Purple". */}
        <fieldset>
          <legend className="mb-1 text-sm font-semibold">{t("theme.color")}</legend>
          <div className="grid grid-cols-[repeat(auto-fill,minmax(6rem,1fr))] gap-x-2">
            {themeColors.map((color) => (
              <label key={color} className="flex min-h-11 items-center gap-2 text-sm">
                <input type="radio" name="color" value={color} defaultChecked={theme.color === color} />
                <span className="swatch inline-block h-3 w-3 rounded-full" data-swatch={color} aria-hidden="true" />
                {t(`theme.colors.${color}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" className="btn-primary">
          {t("theme.save")}
        </button>
      </Form>
    </details>
  );
}
