import type { ActionArgs } from "~/context.server";
import { handleInboundWhatsApp } from "~/models/whatsapp.server";
import { twiml, verifiedTwilioParams } from "~/services/webhooks.server";
import { MEDIA_SID, MESSAGE_SID } from "~/services/whatsapp-simulator.server";
import { webhookE164 } from "~/utils/phone.server";

/** `whatsapp:+91…` → `+91…`, if it is a number as Twilio writes one. */
const whatsappE164 = (address: string | undefined) =>
  address?.startsWith("whatsapp:") ? webhookE164(address.slice("whatsapp:".length)) : null;

/**
 * Twilio's "a message comes in" webhook for the WhatsApp sender (decision 041): a voice note
 * answering a question, STOP / START, or any other text. Her reply is sent through the outbox (so
 * it is kept there), not in this response.
 */
export async function action({ request, context }: ActionArgs) {
  const params = await verifiedTwilioParams(request, context.config);
  if (!context.config.whatsappOn) return new Response(null, { status: 404 });
  const from = whatsappE164(params.From);
  const messageSid = MESSAGE_SID.exec(params.MessageSid ?? "")?.[0];
  const mediaCount = Number(params.NumMedia ?? "0");
  if (!from || !whatsappE164(params.To) || !messageSid || !Number.isInteger(mediaCount) || mediaCount < 0)
    return new Response(null, { status: 400 });
  // The media's id, taken from its URL only to be looked up under our own account (never fetched as given).
  const mediaSid = mediaCount > 0 ? /\/Media\/(ME[0-9a-f]{32})$/.exec(params.MediaUrl0 ?? "")?.[1] : undefined;
  if (mediaCount > 0 && (!mediaSid || !MEDIA_SID.test(mediaSid))) return new Response(null, { status: 400 });
  const repliedTo = MESSAGE_SID.exec(params.OriginalRepliedMessageSid ?? "")?.[0] ?? null;
  await handleInboundWhatsApp(context.db, context.config, {
    from,
    body: params.Body ?? "",
    messageSid,
    media: mediaSid ? { mediaSid, contentType: params.MediaContentType0 ?? "" } : null,
    repliedTo,
  });
  return twiml(null);
}

export const loader = () => new Response(null, { status: 405 });
