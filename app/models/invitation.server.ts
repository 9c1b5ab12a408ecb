import type { AppContext } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import { queueEmail } from "~/services/outbox.server";
import { inTransaction } from "../../db/client";
import type { Language } from "../../db/schema";

/** Records the invitation and queues its email (in the inviter's language) in one transaction. */
export async function inviteToHeirloom(
  context: Pick<AppContext, "db" | "config">,
  inviter: { id: string; first_name: string; last_name: string; language: Language },
  email: string,
) {
  const t = await getServerT(inviter.language, context, "emails");
  const inviterName = `${inviter.first_name} ${inviter.last_name}`.trim();
  await inTransaction(context.db, async (tx) => {
    await tx.insertInto("user_invitations").values({ invited_by: inviter.id, email }).execute();
    await queueEmail(tx, {
      to: email,
      subject: t("invitation.subject", { inviter: inviterName }),
      text: t("invitation.text", { inviter: inviterName, registerUrl: `${context.config.APP_URL}/auth/register` }),
    });
  });
}
