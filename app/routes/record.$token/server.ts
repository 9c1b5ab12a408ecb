import { data } from "react-router";
import type { AppContext } from "~/context.server";
import { acceptRecording } from "~/models/answer.server";
import { capabilityPageHeaders } from "~/models/capability-links.server";
import { receiveAnswerFile } from "~/services/answer-file-form.server";

/** What the page shows after a post; `error` and `sendError` are translation keys (record namespace). */
export type ActionResult = { ok: boolean; error?: string; skipped?: boolean; sentTo?: string; sendError?: string };

export const reply = (result: ActionResult, status = 200) => data(result, { status, headers: capabilityPageHeaders });
// Answered before the body was read to its end: close the connection so nothing reuses it mid-body.
const refuse = (result: ActionResult, status: number) =>
  data(result, { status, headers: { ...capabilityPageHeaders, Connection: "close" } });

/** The answer as a plain multipart post (without JavaScript), through the form reader My Stories shares. */
export async function answerFromFileForm(context: AppContext, request: Request, promptId: string) {
  const { ok, error, status, close } = await receiveAnswerFile(request, (input) =>
    acceptRecording(context, { promptId, ...input }),
  );
  const result: ActionResult = error ? { ok, error } : { ok };
  return close ? refuse(result, status) : reply(result, status);
}
