import type { LoaderArgs } from "~/context.server";
import { capabilityPageHeaders } from "~/models/capability-links.server";
import { captionsHeaders, captionsOfHeardAnswer } from "~/models/captions.server";
import { answerForShareToken } from "~/models/share.server";

/** The shared answer's captions, checked on every request like its audio (s.$token.audio.ts). */
export async function loader({ context, params }: LoaderArgs) {
  const answer = await answerForShareToken(context, params.token!);
  const captions = answer ? await captionsOfHeardAnswer(context.db, answer.id) : null;
  if (!captions) throw new Response(null, { status: 404, headers: capabilityPageHeaders });
  return new Response(captions, { headers: { ...captionsHeaders, ...capabilityPageHeaders } });
}
