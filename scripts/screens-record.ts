// `npm run screens`: the record page in each state at 360 and 1280 px, English and Hindi, with
// JavaScript on and off, into docs/screens/record/ (PNG, palette). The shots are taken by
// tests/e2e/screens-record.spec.ts with the e2e server, database and fake microphone; this script
// only asks Playwright to run it (the ordinary suite skips it). Run `npm run build` first.
import { spawnSync } from "node:child_process";

const result = spawnSync(
  "npx",
  ["playwright", "test", "tests/e2e/screens-record.spec.ts", "--project", "js", "--trace", "off", "--workers", "1"],
  { stdio: "inherit", env: { ...process.env, SCREENS: "1" } },
);
process.exitCode = result.status ?? 1;
