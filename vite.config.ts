import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

/**
 * The app's "react-i18next" is our own ~1 KB translator (app/i18n/react-lite.tsx, decision 026), in
 * the browser bundle and in the server's rendering (decision 029): both render with the same
 * translator, so a hydrated page reads exactly as it was sent, and rendering skips i18next's
 * per-call work. Tests keep the real one outside the browser (lite.test.ts holds the two to the
 * same strings).
 */
const liteI18n: Plugin = {
  name: "heirloom:lite-i18n",
  enforce: "pre",
  applyToEnvironment: (environment) =>
    environment.name === "client" || (environment.name === "ssr" && !process.env.VITEST),
  resolveId(id) {
    if (id === "react-i18next") return path.resolve("app/i18n/react-lite.tsx");
  },
};

export default defineConfig({
  server: { hmr: { port: 24678 } },
  resolve: { tsconfigPaths: true },
  plugins: [
    tailwindcss(),
    liteI18n,
    // vitest loads this config too; the React Router plugin only belongs in app builds.
    !process.env.VITEST && reactRouter(),
  ],
});
