import i18next, { type BackendModule } from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { i18nOptions } from "~/i18n/config";
import { I18N_DATA_ELEMENT_ID } from "~/i18n/embedded-resources";

/**
 * Namespaces a page did not embed, fetched when a client navigation needs them: /locales/{lng}/{ns}
 * (a few lines instead of i18next-fetch-backend, which weighed more on every first visit).
 */
const fetchBackend: BackendModule = {
  type: "backend",
  init() {},
  read(language, namespace, callback) {
    fetch(`/locales/${language}/${namespace}`)
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then(
        (data) => callback(null, data),
        (error: Error) => callback(error, false),
      );
  },
};

async function hydrate() {
  const lng = document.documentElement.lang;
  // The server embeds the translations this page uses; anything else is fetched on demand.
  const { resources: embedded, variables } = JSON.parse(
    document.getElementById(I18N_DATA_ELEMENT_ID)?.textContent || "{}",
  );
  await i18next
    .use(initReactI18next)
    .use(fetchBackend)
    .init({
      ...i18nOptions(variables),
      lng,
      ns: Object.keys(embedded),
      resources: { [lng]: embedded },
      partialBundledLanguages: true,
      detection: undefined,
    });

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
