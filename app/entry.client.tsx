import i18next from "i18next";
import Fetch from "i18next-fetch-backend";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { i18nOptions } from "~/i18n/config";
import { I18N_DATA_ELEMENT_ID } from "~/i18n/embedded-resources";

async function hydrate() {
  const lng = document.documentElement.lang;
  // The server embeds the translations this page uses; anything else is fetched on demand.
  const { resources: embedded, variables } = JSON.parse(
    document.getElementById(I18N_DATA_ELEMENT_ID)?.textContent || "{}",
  );
  await i18next
    .use(initReactI18next)
    .use(Fetch)
    .init({
      ...i18nOptions(variables),
      lng,
      ns: Object.keys(embedded),
      resources: { [lng]: embedded },
      partialBundledLanguages: true,
      backend: { loadPath: "/locales/{{lng}}/{{ns}}" },
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
