import type { ActionArgs } from "~/context.server";
import { handleInboundSms } from "~/models/sms-consent.server";
import { twiml, verifiedTwilioParams } from "~/services/webhooks.server";
import { webhookE164 } from "~/utils/phone.server";

const MESSAGE_SID = /^(SM|MM)[0-9a-f]{32}$/;

/** Twilio's "a message comes in" webhook: STOP / START / YES / HELP replies from Storytellers. */
export async function action({ request, context }: ActionArgs) {
  const params = await verifiedTwilioParams(request, context.config);
  // Twilio always sends these; a request without them (or with a number that is no number) is not its.
  const from = webhookE164(params.From);
  const messageSid = MESSAGE_SID.exec(params.MessageSid ?? "")?.[0];
  if (!from || !webhookE164(params.To) || !messageSid || params.Body === undefined)
    return new Response(null, { status: 400 });
  return twiml(await handleInboundSms(context.db, context.config, { from, body: params.Body, messageSid }));
}

export const loader = () => new Response(null, { status: 405 });
