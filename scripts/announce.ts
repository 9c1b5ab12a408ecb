// `npm run announce -- --subject "…" --file news.txt [--subject-hi "…" --file-hi news.hi.txt]`:
// emails the site's news to every account whose Application notifications are on, in Hindi to
// Hindi speakers when a Hindi text is given. Sent by the running app's jobs (or queued for them).
import "../server/env-file";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { ConfigError } from "~/config.server";
import { type AnnouncementByLanguage, queueAnnouncement } from "~/models/announcement.server";
import { openAppDatabase } from "../server/app-database";
import { StartupError } from "../server/startup-error";

function readAnnouncement(): AnnouncementByLanguage {
  const { values } = parseArgs({
    options: {
      subject: { type: "string" },
      file: { type: "string" },
      "subject-hi": { type: "string" },
      "file-hi": { type: "string" },
    },
  });
  const part = (subject: string | undefined, file: string | undefined, flags: string) => {
    if (!subject?.trim() || !file) throw new ConfigError(`${flags} are both needed`);
    const message = readFileSync(file, "utf8").trim();
    if (!message) throw new ConfigError(`${file} is empty`);
    return { subject: subject.trim(), message };
  };
  const announcement: AnnouncementByLanguage = { en: part(values.subject, values.file, "--subject and --file") };
  if (values["subject-hi"] || values["file-hi"]) {
    announcement.hi = part(values["subject-hi"], values["file-hi"], "--subject-hi and --file-hi");
  }
  return announcement;
}

async function main() {
  const announcement = readAnnouncement();
  const { db, config, close } = await openAppDatabase();
  try {
    const count = await queueAnnouncement(db, config, announcement);
    console.log(`Queued for ${count} ${count === 1 ? "person" : "people"} with Application notifications on.`);
  } finally {
    await close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError || error instanceof StartupError ? error.message : error);
  process.exit(1);
});
