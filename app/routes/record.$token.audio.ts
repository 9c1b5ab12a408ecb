import type { LoaderFunctionArgs } from "@remix-run/node";
import { capabilityPageHeaders, promptForRecordToken } from "~/models/capability-links.server";
import { serveStoredFile } from "~/utils/serve-file.server";

/** The Storyteller's own answer, through their record link (private or not: it is theirs). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const prompt = await promptForRecordToken(context, params.token!);
  const answer = prompt
    ? await context.db.selectFrom("answers").select(["storage_key", "content_type", "playable_storage_key", "playable_content_type"]).where("prompt_id", "=", prompt.id).executeTakeFirst()
    : undefined;
  if (!answer) throw new Response(null, { status: 404, headers: capabilityPageHeaders });
  const playable = answer.playable_storage_key && answer.playable_content_type;
  return serveStoredFile(request, context.storage, playable ? answer.playable_storage_key! : answer.storage_key, {
    contentType: playable ? answer.playable_content_type! : answer.content_type,
    disposition: "inline",
    headers: capabilityPageHeaders,
  });
}
