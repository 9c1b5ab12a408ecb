// `npm run db:seed` (or `npm run db:seed -- --email you@example.org`): the demo family of
// db/seed/demo-family.ts, in the database the app uses (server/app-database.ts). Running it again
// adds nothing.
import "../../server/env-file";
import { ConfigError } from "~/config.server";
import { createStorageService } from "~/services/storage.server";
import { openAppDatabase } from "../../server/app-database";
import { StartupError } from "../../server/startup-error";
import { DEMO_EMAIL, seedDemoFamily } from "./demo-family";

function emailArgument(): string | undefined {
  const index = process.argv.indexOf("--email");
  const value =
    index >= 0
      ? process.argv[index + 1]
      : process.argv.find((arg) => arg.startsWith("--email="))?.slice("--email=".length);
  if (index >= 0 && !value) throw new ConfigError("--email needs an address");
  if (value && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value))
    throw new ConfigError(`--email ${value} is not an email address`);
  return value;
}

async function main() {
  const email = emailArgument() ?? DEMO_EMAIL;
  const { db, config, close } = await openAppDatabase();
  try {
    const summary = await seedDemoFamily({ db, config, storage: createStorageService(config) }, { email });
    for (const s of summary.storytellers) {
      console.log(
        `${s.created ? "Added" : "Already there:"} ${s.nickname} (${s.language === "hi" ? "Hindi" : "English"}): ` +
          `${s.sent} prompts sent, ${s.answers} answered with audio and a transcript, ${s.queued} waiting in the queue`,
      );
    }
    console.log(`\nSign in as ${summary.email}${summary.userCreated ? "" : " (the account was already there)"}:`);
    console.log(`  1. start the app (npm start, or the container) and open ${config.APP_URL}/auth/login`);
    console.log(`  2. enter ${summary.email}`);
    if (config.mailUsesOutbox)
      console.log(
        `  3. the 6-digit code is in the outbox: ${config.APP_URL}/dev/outbox from this computer, or ` +
          "`npm run outbox` (in Docker: `docker compose exec app npm run outbox`)",
      );
    else
      console.log(
        `  3. the code goes out by email through Postmark: use an address you read (npm run db:seed -- --email you@example.org)`,
      );
  } finally {
    await close();
  }
}

main().catch((error) => {
  // A ConfigError or StartupError is one line that says what to change; anything else keeps its stack.
  console.error(error instanceof ConfigError || error instanceof StartupError ? error.message : error);
  process.exit(1);
});
