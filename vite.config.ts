import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { i18nAlias } from "./app/i18n/alias.ts";

export default defineConfig({
  server: { hmr: { port: 24678 } },
  // "react-i18next" is our lite translator everywhere: browser, server rendering, tests (decision 034).
  resolve: { tsconfigPaths: true, alias: i18nAlias },
  plugins: [tailwindcss(), reactRouter()],
  // Rolldown warns when plugins take most of a build's time, which on a busy machine is React Router's
  // own virtual modules (2.3 s of 3.1): a warning about the machine, not the code.
  build: { rolldownOptions: { checks: { bundlerTimings: false } } },
});
