import { readFileSync } from "node:fs";
import path from "node:path";
import type { Config } from "~/config.server";

type StandaloneScript = "recorder" | "public-page" | "follow-words";
const SOURCES: Record<StandaloneScript, string> = {
  recorder: "/app/recorder/recorder.ts",
  "public-page": "/app/standalone/public-page.ts",
  "follow-words": "/app/standalone/follow-words.ts",
};
let built: Record<string, string> | undefined;

/**
 * Where a standalone page's script is served from: the hashed bundle after `npm run build`
 * (scripts/build-standalone.mjs), or the source itself through Vite while developing.
 */
export function standaloneScript(config: Pick<Config, "NODE_ENV">, name: StandaloneScript): string {
  if (config.NODE_ENV === "development") return SOURCES[name];
  built ??= JSON.parse(readFileSync(path.resolve("build/standalone-scripts.json"), "utf8")) as Record<string, string>;
  return built[name];
}
