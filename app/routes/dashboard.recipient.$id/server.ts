import { data, redirect } from "react-router";
import type { AppContext } from "~/context.server";
import { i18nServer } from "~/i18n/i18next.server";
import { askedStorytellerRole } from "~/models/access.server";
import { answerCodesFor } from "~/models/answer-code.server";
import { queueSendNow, reachProblem } from "~/models/delivery.server";
import {
  deletePrompt,
  editPrompt,
  getStorytellerView,
  movePrompt,
  placePrompt,
  queuedPromptForSending,
} from "~/models/prompt.server";
import { deleteAnswer, requestRerecord, shareAnswer, shareUrlFor, stopSharingAnswer } from "~/models/share.server";
import { setPaused } from "~/models/storyteller.server";
import { wordsView } from "~/models/transcript-edit.server";
import { log } from "~/services/logger.server";
import { redirectWithToast } from "~/services/toast.server";
import { herTime } from "~/utils/intl-formats";
import { zoneLabel } from "~/utils/time-zone-choices.server";
import { displayLine, storytellerVoiceLine } from "~/utils/voice-lines.server";
import { queuedAnchor } from "./intents";
import { type ActionInput, Intent } from "./schema";

/**
 * The one guard of this page, run by its loader and by its action before anything is read from the
 * post: the user's role to this Storyteller, or null (the route answers 404) when they may not see
 * it, or when it is their own stories' is_self row, which has no Storyteller page (decision 017).
 */
export function storytellerPageRole(context: AppContext, userId: string, storytellerId: string) {
  return askedStorytellerRole(context.db, userId, storytellerId);
}

/** The page's data, or null when the user may not see this Storyteller. */
/**
 * The page's data for the tab shown (?sent=true: the Sent tab): only that tab's prompts go into the
 * page, with both tabs' counts; the tabs are links, so the other list comes with its own request.
 */
export async function storytellerPage(
  context: AppContext,
  userId: string,
  storytellerId: string,
  tab: "scheduled" | "sent" = "scheduled",
  locale = "en",
  timeZone = "UTC",
) {
  const view = await getStorytellerView(context.db, userId, storytellerId);
  if (!view) return null;
  // A live share link is shown to copy (it works without JavaScript); its token is signed here, never stored.
  // Answering by phone: each prompt still waiting for an answer shows the number and its code.
  const voiceLine = storytellerVoiceLine(context.config, view.storyteller);
  const codes =
    voiceLine && tab === "sent"
      ? await answerCodesFor(
          context.db,
          context.config,
          // Not a skipped question: the family is not asked to answer it by phone either.
          view.sent.filter((p) => (!p.answer_id && !p.skipped_at) || p.rerecord_requested_at).map((p) => p.id),
        )
      : new Map<string, string>();
  const sent =
    tab === "sent"
      ? await Promise.all(
          view.sent.map(
            async ({
              share_link_id,
              transcript_segments,
              transcript_edited_at,
              transcript_editor,
              heard_again,
              written_beside,
              ...prompt
            }) => ({
              ...prompt,
              // A private answer's words stay with the Storyteller (its transcript is null here already).
              words:
                prompt.answer_id && !prompt.is_private
                  ? wordsView(
                      {
                        transcript: prompt.transcript,
                        transcript_status: prompt.transcript_status ?? "pending",
                        transcript_segments,
                        transcript_edited_at,
                        transcript_editor,
                        heard_again: Boolean(heard_again),
                        written_beside: written_beside ?? null,
                      },
                      locale,
                      timeZone,
                    )
                  : null,
              share_url: share_link_id ? await shareUrlFor(context.config, share_link_id) : null,
              call_in:
                voiceLine && codes.has(prompt.id)
                  ? { number: displayLine(voiceLine), code: codes.get(prompt.id)! }
                  : null,
            }),
          ),
        )
      : [];
  return {
    title: `${view.storyteller.nickname} · ${context.config.APP_NAME}`,
    // Her time zone in words, in the reader's language ("Kolkata, India").
    storyteller: {
      ...view.storyteller,
      zone_place: zoneLabel(view.storyteller.time_zone, locale),
      reach: reachProblem(view.storyteller),
    },
    role: view.role,
    // What the queue shows of each prompt: the sent-only fields (all null here) stay on the server.
    queued: tab === "scheduled" ? view.queued.map(({ id, text, editable }) => ({ id, text, editable })) : [],
    sent,
    counts: { queued: view.queued.length, sent: view.sent.length },
    nextPrompt: view.nextPrompt ? { text: view.nextPrompt.text } : null,
    lastSent: view.lastSent ? { text: view.lastSent.text } : null,
    // The owner's controls (Edit Storyteller, pause, Send now, answers' Delete and Re-record); a
    // collaborator's page offers none of them, and the actions refuse them anyway (decision 018).
    canManage: view.role === "owner",
  };
}

type IntentArgs = { request: Request; context: AppContext; userId: string; storytellerId: string };

/**
 * Does what the button asked. Null when the prompt, answer or Storyteller is not one this user may
 * act on (the route answers 404); otherwise the response: back to the page with a toast.
 */
export async function performIntent({ request, context, userId, storytellerId }: IntentArgs, input: ActionInput) {
  const back = `/dashboard/recipient/${storytellerId}`;
  const sentTab = `${back}?sent=true`;
  const toast = (to: string, type: "success" | "error", key: string) =>
    redirectWithToast(request, context, to, { type, key });
  switch (input.intent) {
    case Intent.moveUp:
    case Intent.moveDown:
    case Intent.moveTop:
    case Intent.place: {
      const moved =
        input.intent === Intent.place
          ? await placePrompt(context.db, userId, storytellerId, input.promptId, input.beforeId || null)
          : input.intent === Intent.moveTop
            ? await placePrompt(context.db, userId, storytellerId, input.promptId, "top")
            : await movePrompt(
                context.db,
                userId,
                storytellerId,
                input.promptId,
                input.intent === Intent.moveUp ? "up" : "down",
              );
      if (!moved) return null;
      // A fetcher stays where it is (its loaders revalidate); a plain post comes back to the same item.
      return input.js ? data({ moved: input.promptId }) : redirect(`${back}#${queuedAnchor(input.promptId)}`);
    }
    case Intent.edit: {
      const result = await editPrompt(context.db, userId, storytellerId, input.promptId, input.text);
      if (result === "not-found") return null;
      const item = `${back}#${queuedAnchor(input.promptId)}`;
      return result === "edited"
        ? toast(item, "success", "storytellers:toast.edited")
        : toast(item, "error", "storytellers:toast.alreadyScheduled");
    }
    case Intent.delete:
      return (await deletePrompt(context.db, userId, storytellerId, input.promptId))
        ? toast(back, "success", "storytellers:toast.deleted")
        : null;
    case Intent.pause:
    case Intent.resume: {
      const paused = input.intent === Intent.pause;
      return (await setPaused(context.db, userId, storytellerId, paused))
        ? toast(back, "success", `storytellers:toast.${paused ? "paused" : "resumed"}`)
        : null;
    }
    case Intent.sendNow: {
      const prompt = await queuedPromptForSending(context.db, userId, storytellerId, input.promptId);
      if (!prompt) return null;
      const queued = await queueSendNow(context.db, prompt.id);
      if (queued.outcome === "unreachable") return toast(back, "error", "storytellers:toast.cannotSendNow");
      if (queued.outcome !== "queued" || !queued.heldUntil)
        return toast(back, "success", "storytellers:toast.sendNowRequested");
      // Night where she is: it waits for 08:00 there, and the Sent tab shows it waiting.
      return redirectWithToast(request, context, `${sentTab}#prompt-${prompt.id}`, {
        type: "info",
        key: "storytellers:toast.sendNowHeld",
        values: {
          name: queued.nickname,
          time: herTime(queued.heldUntil, queued.timeZone, await i18nServer.getLocale(request)),
          at: queued.heldUntil.toISOString(),
        },
      });
    }
    case Intent.answerShare: {
      const shared = await shareAnswer(context, userId, storytellerId, input.answerId);
      if (!shared) return null;
      if (input.js) return data({ shareUrl: shared.url });
      return toast(sentTab, "success", "storytellers:answers.toast.shared");
    }
    case Intent.answerUnshare:
      return (await stopSharingAnswer(context.db, userId, storytellerId, input.answerId))
        ? toast(sentTab, "success", "storytellers:answers.toast.unshared")
        : null;
    case Intent.answerDelete: {
      let deleted: boolean;
      try {
        deleted = await deleteAnswer(context, userId, storytellerId, input.answerId);
      } catch (error) {
        log.error({ module: "answers", err: error }, "delete failed");
        return toast(sentTab, "error", "storytellers:answers.toast.deleteFailed");
      }
      return deleted ? toast(sentTab, "success", "storytellers:answers.toast.deleted") : null;
    }
    case Intent.answerRerecord: {
      const result = await requestRerecord(context.db, userId, storytellerId, input.answerId);
      if (result === "not-found") return null;
      return result === "requested"
        ? toast(sentTab, "success", "storytellers:answers.toast.rerecordRequested")
        : toast(sentTab, "error", "storytellers:toast.cannotSendNow");
    }
  }
}
