import type { AppContext } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import { signCapability } from "~/services/tokens.server";
import { displayLine, storytellerVoiceLine } from "~/utils/voice-lines.server";
import { answerCodesFor } from "./answer-code.server";
import { promptForRecordToken } from "./capability-links.server";

/** The recorder script's words, in the Storyteller's language (it runs without i18next). */
const RECORDER_TEXT_KEYS = [
  "record",
  "stop",
  "recording",
  "timeLeft",
  "autoStopped",
  "announceMinutes",
  "announceOneMinute",
  "announceSeconds",
  "ready",
  "listen",
  "recorded",
  "unsentStatus",
  "rerecord",
  "rerecordConfirm",
  "submit",
  "sending",
  "submitted",
  "failed",
  "failedDetail",
  "retry",
  "download",
  "micDenied",
  "micMissing",
  "inAppBrowser",
  "unsupported",
  "uploadInstead",
  "unsent",
  "sendUnsent",
  "discard",
  "discardConfirm",
  "leaveWarning",
  "saveAndGo",
  "leaveAnyway",
  "upload.empty",
  "upload.tooLarge",
  "upload.notAudio",
  "upload.tooLong",
  "upload.unreadable",
  "upload.unsupported",
  "upload.gone",
] as const;

/**
 * The recorder script's words (it runs without i18next), in a language or the request's: the record
 * page and My Stories' recording page give them to the same recorder.
 */
export async function recorderText(localeOrRequest: string | Request, context: Pick<AppContext, "config">) {
  const t = await getServerT(localeOrRequest, context, "record");
  return Object.fromEntries(
    RECORDER_TEXT_KEYS.map((key) => [key, t(key, { time: "{{time}}", percent: "{{percent}}" })]),
  );
}

/** "Or answer by phone: call … and enter …", while answering by phone is on and the prompt has a code. */
async function callInText(
  context: Pick<AppContext, "db" | "config">,
  prompt: { id: string; language: string; phone_e164: string | null; time_zone: string },
) {
  const line = storytellerVoiceLine(context.config, prompt);
  if (!line) return null;
  const code = (await answerCodesFor(context.db, context.config, [prompt.id])).get(prompt.id);
  if (!code) return null;
  const t = await getServerT(prompt.language, context, "phone");
  return t("callIn.recordPage", { number: displayLine(line), code });
}

/** Everything the record page shows for a live record link, or null ("Question not found"). */
export async function recordPageState(context: Pick<AppContext, "db" | "config">, token: string) {
  const prompt = await promptForRecordToken(context, token);
  if (!prompt) return null;
  const [answer, others] = await Promise.all([
    context.db.selectFrom("answers").select(["id", "is_private"]).where("prompt_id", "=", prompt.id).executeTakeFirst(),
    otherOpenQuestions(context, prompt.storyteller_id, prompt.id),
  ]);
  return {
    /** Hers now: the family may have changed it since the link went out with its ?lng=. */
    language: prompt.language,
    prompt: prompt.text,
    askerName: prompt.asker_name,
    photoUrl: prompt.asker_photo ? `/record/${token}/photo` : null,
    skipped: Boolean(prompt.skipped_at),
    // Asked to record again: the recorder comes back; the old answer stays until the new one is in.
    answer:
      answer && !prompt.rerecord_requested_at
        ? { isPrivate: answer.is_private, audioUrl: `/record/${token}/audio` }
        : null,
    // Her other open questions, each through its own record link: no account (decision 039).
    otherQuestions: await Promise.all(
      others.map(async (other) => ({
        text: other.text,
        url: `/record/${await signCapability(context.config, "record", other.id)}?lng=${prompt.language}`,
      })),
    ),
    recorderText: await recorderText(prompt.language, context),
    callInText: answer && !prompt.rerecord_requested_at ? null : await callInText(context, prompt),
  };
}

/**
 * The Storyteller's other sent questions still waiting for an answer (not skipped; answered ones
 * only when asked to record again), oldest first. The record link is her capability for them all.
 */
function otherOpenQuestions(context: Pick<AppContext, "db">, storytellerId: string, exceptPromptId: string) {
  return context.db
    .selectFrom("prompts as p")
    .leftJoin("answers as a", "a.prompt_id", "p.id")
    .select(["p.id", "p.text"])
    .where("p.storyteller_id", "=", storytellerId)
    .where("p.id", "!=", exceptPromptId)
    .where("p.sent_at", "is not", null)
    .where("p.skipped_at", "is", null)
    .where((eb) => eb.or([eb("a.id", "is", null), eb("p.rerecord_requested_at", "is not", null)]))
    .orderBy("p.sent_at")
    .orderBy("p.id")
    .limit(10)
    .execute();
}
