import type { Config } from "@react-router/dev/config";

// Server rendering with our own Express server (server/main.ts); routes are listed in app/routes.ts.
export default { ssr: true } satisfies Config;
