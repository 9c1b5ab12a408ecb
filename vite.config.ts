import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { i18nAlias } from "./app/i18n/alias.ts";

export default defineConfig({
  server: { hmr: { port: 24678 } },
  // "react-i18next" is our lite translator everywhere: browser, server rendering, tests (decision 034).
  resolve: { tsconfigPaths: true, alias: i18nAlias },
  plugins: [tailwindcss(), reactRouter()],
});
