import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { I18N_DATA_ELEMENT_ID } from "~/i18n/embedded-resources";
import { createLiteI18n } from "~/i18n/lite";
import { AfterHydration, textTypedBeforeHydration } from "~/utils/typed-before-hydration";

// "react-i18next" is ~/i18n/react-lite.tsx and the translator is ~/i18n/lite.ts (decisions 026, 034):
// the same strings as the server's i18next, in a fraction of its size.
const lng = document.documentElement.lang;
// The server embeds the translations this page uses; anything else is fetched on demand.
const { resources, variables } = JSON.parse(document.getElementById(I18N_DATA_ELEMENT_ID)?.textContent || "{}");
const i18n = createLiteI18n({ lng, resources: resources ?? {}, variables, loadPath: "/locales/{{lng}}/{{ns}}" });

startTransition(() => {
  // Words typed into a box while the scripts loaded: React 18's hydration would put the server's back.
  const restoreTyped = textTypedBeforeHydration(document);
  hydrateRoot(
    document,
    <I18nextProvider i18n={i18n}>
      <StrictMode>
        <AfterHydration restore={restoreTyped}>
          <HydratedRouter />
        </AfterHydration>
      </StrictMode>
    </I18nextProvider>,
  );
});
