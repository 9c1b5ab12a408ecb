import { getSessionUser } from "~/auth/session.server";
import type { LoaderArgs } from "~/context.server";
import { answerForListener, serveAnswerAudio } from "~/models/share.server";

/**
 * An answer's audio for the Sent tab's player (with seeking), or `?download=1` as a file named after
 * the Storyteller and the question. Only for the owner and the Storyteller's group; anyone else,
 * signed in or not, and every private answer, gets a 404.
 */
export async function loader({ request, context, params }: LoaderArgs) {
  const user = await getSessionUser(request, context);
  const answer = user ? await answerForListener(context.db, user.id, params.answerId!) : null;
  if (!answer) throw new Response(null, { status: 404 });
  return serveAnswerAudio(request, context.storage, answer, {
    download: new URL(request.url).searchParams.get("download") === "1",
  });
}
