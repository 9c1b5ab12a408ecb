import { z } from "zod";
import type { ActionArgs } from "~/context.server";
import { markEmailUndeliverable } from "~/models/email-bounces.server";
import { applyProviderStatus } from "~/services/outbox.server";
import { verifyPostmarkWebhook } from "~/services/webhooks.server";
import { spamComplaint } from "~/utils/delivery-reasons";
import { readJson } from "~/utils/request-body.server";
import { withoutControlCharacters } from "~/utils/validation";

// Control characters are taken out of what is kept or looked up (PostgreSQL refuses NUL in text).
const providerText = z.string().transform(withoutControlCharacters);
const eventSchema = z.object({
  RecordType: providerText,
  Type: providerText.optional(),
  Email: providerText.optional(),
  Recipient: providerText.optional(),
  MessageID: providerText.optional(),
  Inactive: z.boolean().optional(),
  Description: providerText.optional(),
});

// Bounces that mean the address will never take mail (Postmark's bounce types).
const PERMANENT_BOUNCES = new Set([
  "HardBounce",
  "BadEmailAddress",
  "ManuallyDeactivated",
  "SpamNotification",
  "Blocked",
]);

/**
 * Postmark's bounce and spam-complaint webhook: the address is marked undeliverable on every
 * Storyteller using it, so nothing more is sent there, and the owner sees why.
 */
export async function action({ request, context }: ActionArgs) {
  verifyPostmarkWebhook(request, context.config);
  const parsed = eventSchema.safeParse(await readJson(request));
  if (!parsed.success) return new Response(null, { status: 400 });
  const event = parsed.data;
  const address = event.Email ?? event.Recipient;
  const permanent =
    event.RecordType === "SpamComplaint" ||
    (event.RecordType === "Bounce" && (event.Inactive === true || PERMANENT_BOUNCES.has(event.Type ?? "")));
  if (!permanent || !address) return new Response(null, { status: 204 });

  await markEmailUndeliverable(context.db, address);
  if (event.MessageID) {
    const reason =
      event.RecordType === "SpamComplaint" ? spamComplaint.reason : `Bounced: ${event.Description ?? event.Type}`;
    await applyProviderStatus(context.db, {
      outboxId: null,
      providerMessageId: event.MessageID,
      failed: true,
      reason: reason.slice(0, 300),
    });
  }
  return new Response(null, { status: 204 });
}

export const loader = () => new Response(null, { status: 405 });
