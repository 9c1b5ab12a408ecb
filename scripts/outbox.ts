// `npm run outbox` (`-- --limit 5`): the newest messages in the built-in outbox, as /dev/outbox shows
// them, printed here. /dev/outbox answers only a visitor on this machine's loopback; in a container
// that is nobody (the host's requests arrive from the bridge), so there one reads it with
// `docker compose exec app npm run outbox` instead: no network path to it is opened (decision 031).
import "../server/env-file";
import { ConfigError } from "~/config.server";
import { listOutboxMessages } from "~/services/outbox.server";
import { openAppDatabase } from "../server/app-database";
import { StartupError } from "../server/startup-error";

function limitArgument() {
  const index = process.argv.indexOf("--limit");
  const value = index >= 0 ? Number(process.argv[index + 1]) : 10;
  if (!Number.isInteger(value) || value < 1) throw new ConfigError("--limit needs a whole number above 0");
  return value;
}

async function main() {
  const limit = limitArgument();
  const { db, config, close } = await openAppDatabase();
  try {
    const channels = [
      ...(config.mailUsesOutbox ? (["email"] as const) : []),
      ...(config.smsUsesOutbox ? (["sms"] as const) : []),
      ...(config.voiceUsesSimulator ? (["call"] as const) : []),
    ];
    if (!channels.length) console.log("Every channel has a provider: nothing goes to the outbox.");
    const messages = await listOutboxMessages(db, channels, limit);
    for (const message of messages.reverse()) {
      console.log(
        `--- ${message.created_at.toISOString()} ${message.channel} to ${message.to_address} (${message.status})`,
      );
      if (message.subject) console.log(`Subject: ${message.subject}`);
      console.log(message.text_body.trim(), "\n");
    }
  } finally {
    await close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError || error instanceof StartupError ? error.message : error);
  process.exit(1);
});
