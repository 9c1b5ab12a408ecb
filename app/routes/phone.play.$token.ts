import type { LoaderArgs } from "~/context.server";
import { capabilityPageHeaders } from "~/models/capability-links.server";
import { openPhonePlayback } from "~/models/phone-call.server";
import { log } from "~/services/logger.server";
import { createVoiceService } from "~/services/voice.server";

/**
 * "Press 2 to listen" (decision 022): the `<Play>` of a call's review menu fetches the caller's
 * recording here, with a ten-minute token for that call's recording. We fetch it from Twilio with
 * the account's credentials (recordings may require HTTP auth) and stream it on; the simulator's
 * comes from storage. A bad, expired or foreign token, or a recording already decided, is a 404.
 * The path is a credential: the request log replaces it (server/http.ts).
 */
export async function loader({ context, params }: LoaderArgs) {
  const { config } = context;
  const notFound = () => new Response(null, { status: 404, headers: capabilityPageHeaders });
  if (!config.voiceNumber) return notFound();
  const voice = createVoiceService(config, context.storage);
  let recording;
  try {
    recording = await openPhonePlayback({ db: context.db, config, voice }, params.token ?? "");
  } catch (error) {
    // Twilio unreachable or refusing: the caller hears nothing and the menu comes again.
    log.warn({ module: "phone", err: error }, "phone playback fetch failed");
    return new Response(null, { status: 502, headers: capabilityPageHeaders });
  }
  if (!recording) return notFound();
  const headers = new Headers({ ...capabilityPageHeaders, "Content-Type": recording.contentType });
  if (recording.size !== null) headers.set("Content-Length", String(recording.size));
  return new Response(recording.body, { headers });
}
