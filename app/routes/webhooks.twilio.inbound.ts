import type { ActionArgs } from "~/context.server";
import { handleInboundSms } from "~/models/sms-consent.server";
import { twiml, verifiedTwilioParams } from "~/services/webhooks.server";

/** Twilio's "a message comes in" webhook: STOP / START / YES / HELP replies from Storytellers. */
export async function action({ request, context }: ActionArgs) {
  const params = await verifiedTwilioParams(request, context.config);
  if (!params.From || params.Body === undefined) return new Response(null, { status: 400 });
  return twiml(await handleInboundSms(context.db, context.config, { from: params.From, body: params.Body }));
}

export const loader = () => new Response(null, { status: 405 });
