import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

/**
 * The browser bundle's "react-i18next" is our own ~1 KB translator (app/i18n/react-lite.tsx, decision
 * 027); the server and the tests keep the real one.
 */
const liteI18nInTheBrowser: Plugin = {
  name: "heirloom:lite-i18n-in-the-browser",
  enforce: "pre",
  applyToEnvironment: (environment) => environment.name === "client",
  resolveId(id) {
    if (id === "react-i18next") return path.resolve("app/i18n/react-lite.tsx");
  },
};

export default defineConfig({
  server: { hmr: { port: 24678 } },
  resolve: { tsconfigPaths: true },
  plugins: [
    tailwindcss(),
    liteI18nInTheBrowser,
    // vitest loads this config too; the React Router plugin only belongs in app builds.
    !process.env.VITEST && reactRouter(),
  ],
});
