import type { LoaderFunctionArgs } from "@remix-run/node";
import { capabilityPageHeaders, promptForRecordToken } from "~/models/capability-links.server";
import { photoResponse } from "~/utils/images.server";

/** The asker's photo, for the record page and the prompt email: only through a live record link. */
export async function loader({ context, params }: LoaderFunctionArgs) {
  const prompt = await promptForRecordToken(context, params.token!);
  return photoResponse(context.storage, prompt?.asker_photo, capabilityPageHeaders);
}
