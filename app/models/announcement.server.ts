import type { Config } from "~/config.server";
import { getServerT } from "~/i18n/i18next.server";
import { queueEmail } from "~/services/outbox.server";
import { type DbOrTx, inTransaction } from "../../db/client";
import type { Language } from "../../db/schema";

export type Announcement = { subject: string; message: string };
/** The site's news, written by whoever runs it: English always, Hindi when they wrote it. */
export type AnnouncementByLanguage = { en: Announcement } & Partial<Record<Language, Announcement>>;

/**
 * Queues the announcement, in each person's language where it was written, to every account whose
 * Application preference (notify_application) is on; all or none. Returns how many were queued.
 */
export async function queueAnnouncement(
  db: DbOrTx,
  config: Config,
  announcement: AnnouncementByLanguage,
): Promise<number> {
  return inTransaction(db, async (tx) => {
    const people = await tx
      .selectFrom("users")
      .select(["email", "first_name", "language"])
      .where("notify_application", "=", true)
      .orderBy("created_at")
      .execute();
    const settingsUrl = `${config.APP_URL}/dashboard/user/account`;
    for (const person of people) {
      const language = announcement[person.language] ? person.language : "en";
      const { subject, message } = announcement[language] ?? announcement.en;
      const t = await getServerT(language, { config }, "emails");
      await queueEmail(tx, {
        to: person.email,
        subject,
        text: t("announcement.text", { name: person.first_name, message, settingsUrl }),
      });
    }
    return people.length;
  });
}
