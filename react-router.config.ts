import type { Config } from "@react-router/dev/config";

// Server rendering with our own Express server (server/main.ts); routes are listed in app/routes.ts.
export default {
  ssr: true,
  // React Router 8's changes, each declined for now: named so the build does not warn, and each one a
  // move of its own with its reasons in docs/decisions/034-one-translator-faster-suite.md.
  future: {
    v8_middleware: false,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
