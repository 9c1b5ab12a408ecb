import type { LoaderArgs } from "~/context.server";
import { capabilityPageHeaders } from "~/models/capability-links.server";
import { answerForListenToken } from "~/models/keepsake.server";
import { serveAnswerAudio } from "~/models/share.server";

/** A book's listen link audio (with seeking), checked on every request: revoked is a 404. */
export async function loader({ request, context, params }: LoaderArgs) {
  const answer = await answerForListenToken(context, params.token!);
  if (!answer) throw new Response(null, { status: 404, headers: capabilityPageHeaders });
  return serveAnswerAudio(request, context.storage, answer, {
    headers: { "Referrer-Policy": capabilityPageHeaders["Referrer-Policy"] },
    cacheControl: capabilityPageHeaders["Cache-Control"],
  });
}
