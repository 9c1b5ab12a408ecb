import { getSessionUser } from "~/auth/session.server";
import type { LoaderArgs } from "~/context.server";
import { captionsHeaders, captionsOfHeardAnswer } from "~/models/captions.server";
import { answerForListener } from "~/models/share.server";

/** An answer's captions for the player's <track>: exactly who may hear its audio (media.answer.$answerId.ts), else 404. */
export async function loader({ request, context, params }: LoaderArgs) {
  const user = await getSessionUser(request, context);
  const answer = user ? await answerForListener(context.db, user.id, params.answerId!) : null;
  const captions = answer ? await captionsOfHeardAnswer(context.db, answer.id) : null;
  if (!captions) throw new Response(null, { status: 404 });
  return new Response(captions, { headers: { ...captionsHeaders, "Cache-Control": "private, no-cache" } });
}
