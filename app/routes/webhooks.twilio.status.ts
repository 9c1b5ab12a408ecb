import type { ActionArgs } from "~/context.server";
import { applyProviderStatus } from "~/services/outbox.server";
import { verifiedTwilioParams } from "~/services/webhooks.server";

/** Twilio's status callback for each text we send (`?m=` is our outbox id, set when sending). */
export async function action({ request, context }: ActionArgs) {
  const params = await verifiedTwilioParams(request, context.config);
  const outboxId = new URL(request.url).searchParams.get("m");
  if (!params.MessageSid || !params.MessageStatus) return new Response(null, { status: 400 });
  await applyProviderStatus(context.db, {
    outboxId,
    providerMessageId: params.MessageSid,
    failed: params.MessageStatus === "failed" || params.MessageStatus === "undelivered",
    reason: `Twilio ${params.MessageStatus}${params.ErrorCode ? ` (error ${params.ErrorCode})` : ""}`,
  });
  return new Response(null, { status: 204 });
}

export const loader = () => new Response(null, { status: 405 });
