import { fileURLToPath } from "node:url";

/**
 * The one place "react-i18next" is pointed at our ~1 KB translator (app/i18n/react-lite.tsx,
 * decisions 026, 029, 034). vite.config.ts and vitest.config.ts use it; tsconfig.json's `paths` says
 * the same to tsc, so a feature the lite renderer lacks (`Trans`, `context`, `defaultValue`) fails
 * type-checking instead of rendering wrongly.
 */
export const i18nAlias = {
  "react-i18next": fileURLToPath(new URL("./react-lite.tsx", import.meta.url)),
};
