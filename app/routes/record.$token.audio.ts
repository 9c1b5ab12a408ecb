import type { LoaderArgs } from "~/context.server";
import { answerForRecordToken, capabilityPageHeaders } from "~/models/capability-links.server";
import { playableSource } from "~/models/share.server";
import { serveStoredFile } from "~/services/serve-file.server";

/** The Storyteller's own answer, through their record link (private or not: it is theirs). */
export async function loader({ request, context, params }: LoaderArgs) {
  const answer = await answerForRecordToken(context, params.token!);
  if (!answer) throw new Response(null, { status: 404, headers: capabilityPageHeaders });
  const source = playableSource(answer);
  return serveStoredFile(request, context.storage, source.key, {
    contentType: source.contentType,
    disposition: "inline",
    headers: capabilityPageHeaders,
  });
}
