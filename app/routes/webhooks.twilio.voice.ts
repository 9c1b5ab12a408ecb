import type { ActionArgs } from "~/context.server";
import { handleVoiceStep, voiceStepSchema } from "~/models/phone-call.server";
import { verifiedTwilioParams } from "~/services/webhooks.server";

/**
 * Every Twilio Programmable Voice webhook of answering by phone: the number's "a call comes in"
 * (`?step=incoming`), its status callback (`?step=status`), and the action URLs our TwiML gives
 * (`?step=code`, `recorded`, `review`, …). Signed against APP_URL or 403; no digits or recording
 * addresses are logged.
 */
export async function action({ request, context }: ActionArgs) {
  const { config } = context;
  if (!config.voiceNumber || config.voiceUsesSimulator) return new Response(null, { status: 404 });
  const params = await verifiedTwilioParams(request, config);
  const query = new URL(request.url).searchParams;
  const step = voiceStepSchema.safeParse(query.get("step"));
  if (!step.success) return new Response(null, { status: 400 });
  // A call-out's webhooks carry its outbox message (`m`, signed with the rest of the URL).
  const outboxId = query.get("m");
  const twiml = await handleVoiceStep(
    { db: context.db, config, storage: context.storage },
    step.data,
    outboxId ? { ...params, m: outboxId } : params,
  );
  if (twiml === null) return new Response(null, { status: 204 });
  return new Response(twiml, { headers: { "Content-Type": "text/xml; charset=utf-8" } });
}

export const loader = () => new Response(null, { status: 405 });
