import type { LoaderArgs } from "~/context.server";
import { capabilityPageHeaders } from "~/models/capability-links.server";
import { answerForShareToken, serveAnswerAudio } from "~/models/share.server";

/** The shared answer's audio (with seeking), for the player on /s/{token}. Checked on every request. */
export async function loader({ request, context, params }: LoaderArgs) {
  const answer = await answerForShareToken(context, params.token!);
  if (!answer) throw new Response(null, { status: 404, headers: capabilityPageHeaders });
  return serveAnswerAudio(request, context.storage, answer, {
    headers: { "Referrer-Policy": capabilityPageHeaders["Referrer-Policy"] },
    cacheControl: capabilityPageHeaders["Cache-Control"],
  });
}
