// `node scripts/check-caches.mjs restore|save`: `npm test` restores tsc's, ESLint's and Prettier's
// caches from the machine's before its checks and saves them once they pass (decision 060).
import { restoreCheckCaches, saveCheckCaches } from "./machine-cache.mjs";

const [command] = process.argv.slice(2);
const run = { restore: restoreCheckCaches, save: saveCheckCaches }[command];
if (!run) {
  console.error("usage: node scripts/check-caches.mjs restore|save");
  process.exit(2);
}
const done = run(process.cwd());
if (done.length) console.log(`check caches ${command === "restore" ? "restored" : "saved"}: ${done.join(", ")}`);
