import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  server: { hmr: { port: 24678 } },
  plugins: [
    tailwindcss(),
    // vitest loads this config too; the Remix plugin only belongs in app builds.
    !process.env.VITEST &&
      remix({
        ignoredRouteFiles: ["**/*.test.{ts,tsx}"],
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
        },
      }),
    tsconfigPaths(),
  ],
});
