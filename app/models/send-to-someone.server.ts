import type { AppContext } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import { queueEmail, queueSms, queueWhatsApp } from "~/services/outbox.server";
import { parsePhone, takesTexts } from "~/utils/phone.server";
import { noControlCharacters } from "~/utils/validation";
import { storytellerCountry } from "~/utils/voice-lines.server";
import { inTransaction } from "../../db/client";
import { sharedAnswer } from "./access.server";
import { shareUrlFor } from "./share.server";
import { numberHasSentStop } from "./sms-consent.server";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type SendToSomeoneResult =
  | { ok: true; address: string }
  | { ok: false; error: "invalidAddress" | "textsUsCaOnly" | "optedOut" | "private" | "tooMany" };

/**
 * After answering, the Storyteller sends their own answer to someone they choose: a share link (the
 * same revocable kind the family makes) by email, or to a mobile number by the channel that reaches
 * it: a text to a US or Canadian mobile, WhatsApp to any other (where WhatsApp is set up; else the
 * number is told texts go only to the US and Canada). Private answers are not offered. Limited per
 * answer and per address of the sender.
 */
export async function sendAnswerToSomeone(
  context: Pick<AppContext, "db" | "config" | "rateLimit" | "clientIp">,
  prompt: { id: string; first_name: string; language: "en" | "hi"; phone_e164: string | null; time_zone: string },
  to: string,
): Promise<SendToSomeoneResult> {
  const trimmed = to.trim().slice(0, 254);
  // A NUL or other control character is no address (and PostgreSQL refuses a NUL in text).
  const email = EMAIL.test(trimmed) && noControlCharacters(trimmed) ? trimmed : null;
  // A number written nationally is read as one of her own country's.
  const number = email ? null : parsePhone(trimmed, storytellerCountry(prompt) ?? undefined);
  if (!email && !number) return { ok: false, error: "invalidAddress" };
  const channel = !number
    ? null
    : takesTexts(number)
      ? "sms"
      : context.config.whatsappOn && !number.landline
        ? "whatsapp"
        : null;
  if (number && !channel) return { ok: false, error: "textsUsCaOnly" };
  const phone = channel && number!.e164;
  if (phone && (await numberHasSentStop(context.db, phone))) return { ok: false, error: "optedOut" };
  const answer = await context.db
    .selectFrom("answers")
    .select(["id", sharedAnswer("answers").as("shared")])
    .where("prompt_id", "=", prompt.id)
    .executeTakeFirst();
  if (!answer?.shared) return { ok: false, error: "private" };
  for (const [policy, key] of [
    ["sendToSomeonePerAnswer", answer.id],
    ["sendToSomeonePerIp", context.clientIp],
  ] as const) {
    if (!(await context.rateLimit(policy, key)).allowed) return { ok: false, error: "tooMany" };
  }

  const t = await getServerT(prompt.language, context, "record");
  await inTransaction(context.db, async (tx) => {
    const link = await tx
      .insertInto("share_links")
      .values({ answer_id: answer.id, created_by_user_id: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    const url = await shareUrlFor(context.config, link.id);
    if (email) {
      await queueEmail(tx, {
        to: email,
        subject: t("share.emailSubject", { name: prompt.first_name }),
        text: t("share.emailText", { name: prompt.first_name, url }),
      });
    } else if (channel === "sms") {
      await queueSms(tx, { to: phone!, text: t("share.sms", { name: prompt.first_name, url }) });
    } else {
      await queueWhatsApp(tx, { to: phone!, text: t("share.whatsapp", { name: prompt.first_name, url }) });
    }
  });
  return { ok: true, address: email ?? phone! };
}
