import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  server: { hmr: { port: 24678 } },
  resolve: { tsconfigPaths: true },
  plugins: [
    tailwindcss(),
    // vitest loads this config too; the React Router plugin only belongs in app builds.
    !process.env.VITEST && reactRouter(),
  ],
});
