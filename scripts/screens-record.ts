// `npm run screens`: screenshots of the main screens at 360 and 1280 px, English and Hindi, into docs/screens/
// (PNG, small enough to keep in git):
//   record/     the record page in each state, JavaScript on and off (screens-record.spec.ts)
//   queue/      the overview, the queue and the queue mid-drag, the picker, the Sent tab and the
//               board (screens-queue.spec.ts)
//   reactions/  an answer's hearts and notes; book/ the keepsake book's first pages, English and
//               Hindi, for a Storyteller with an emoji in her name, drawn by pdftoppm
//               (reactions-and-book.spec.ts)
//   first-evening/  Add a Storyteller's time zone found by typing "India", the picker with two
//               questions ticked, and the bell opened (screens-first-evening.spec.ts)
// The shots are taken by those Playwright specs with the e2e server, database and fake microphone;
// this script only asks Playwright to run them (the ordinary suite skips the shots). Run
// `npm run build` first (`npm run screens` does).
import { spawnSync } from "node:child_process";
import path from "node:path";

const specs = [
  "screens-record.spec.ts",
  "screens-queue.spec.ts",
  "reactions-and-book.spec.ts",
  "screens-first-evening.spec.ts",
];
const pdftoppm = spawnSync("pdftoppm", ["-v"]);
if (pdftoppm.error) console.warn("pdftoppm (poppler-utils) is not installed: the book's pages will not be drawn.");

const result = spawnSync(
  "npx",
  [
    "playwright",
    "test",
    ...specs.map((spec) => `tests/e2e/${spec}`),
    "--project",
    "js",
    "--trace",
    "off",
    "--workers",
    "1",
  ],
  {
    stdio: "inherit",
    env: { ...process.env, SCREENS: "1", SCREENS_DIR: path.resolve("docs/screens") },
  },
);
process.exitCode = result.status ?? 1;
