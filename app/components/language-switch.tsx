import { useTranslation } from "react-i18next";
import { Form, useLocation } from "react-router";
import { languageNames, supportedLanguages } from "~/i18n/config";

/** Two submit buttons in a plain form: works without JavaScript; the server saves the choice. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  return (
    <Form
      method="post"
      action="/resources/language"
      className="flex items-center gap-1"
      aria-label={t("language.label")}
    >
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {supportedLanguages.map((lng) => (
        <button
          key={lng}
          type="submit"
          name="lng"
          value={lng}
          lang={lng}
          aria-pressed={i18n.language === lng}
          className="min-h-11 min-w-11 rounded px-2 text-sm aria-pressed:bg-primary aria-pressed:text-white hover:bg-line/60"
        >
          {languageNames[lng]}
        </button>
      ))}
    </Form>
  );
}
