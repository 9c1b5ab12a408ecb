import type { LoaderArgs } from "~/context.server";
import { capabilityPageHeaders, promptForRecordToken } from "~/models/capability-links.server";
import { photoResponse } from "~/services/images.server";

/** The asker's photo, for the record page and the prompt email: only through a live record link. */
export async function loader({ context, params }: LoaderArgs) {
  const prompt = await promptForRecordToken(context, params.token!);
  return photoResponse(context.storage, prompt?.asker_photo, capabilityPageHeaders);
}
