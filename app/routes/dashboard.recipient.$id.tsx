import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { requireUser } from "~/auth/session.server";
import { AddPromptButton } from "~/components/add-prompt-dialog";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PromptQueue, SentPrompts } from "~/components/prompt-queue";
import { customPromptText } from "~/models/onboarding";
import { setPaused } from "~/models/storyteller.server";
import { deletePrompt, editPrompt, getStorytellerView, movePrompt, placePrompt, queuedPromptForSending } from "~/models/prompt.server";
import { readFormData } from "~/utils/form-data.server";
import { queueSendNow } from "~/models/delivery.server";
import { deleteAnswer, requestRerecord, shareAnswer, shareUrlFor, stopSharingAnswer } from "~/models/share.server";
import { titleFromLoader } from "~/utils/meta";
import { useRootData } from "~/utils/root-data";
import { redirectWithToast } from "~/utils/toast.server";
import { idParam } from "~/utils/ids";

export const handle = { i18n: ["storytellers"] };
export const meta = titleFromLoader;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const view = await getStorytellerView(context.db, user.id, idParam(params.id));
  const canManage = view.storyteller.owner_id === user.id;
  // A live share link is shown to copy (it works without JavaScript); its token is signed here, never stored.
  const sent = await Promise.all(
    view.sent.map(async ({ share_link_id, ...prompt }) => ({ ...prompt, share_url: share_link_id ? await shareUrlFor(context.config, share_link_id) : null })),
  );
  return { title: `${view.storyteller.nickname} · ${context.config.APP_NAME}`, ...view, sent, canManage };
}

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.enum(["move-up", "move-down", "delete", "send-now"]), promptId: z.uuid() }),
  z.object({ intent: z.literal("place"), promptId: z.uuid(), beforeId: z.union([z.uuid(), z.literal("")]) }),
  z.object({ intent: z.literal("edit"), promptId: z.uuid(), text: customPromptText }),
  z.object({ intent: z.enum(["pause", "resume"]) }),
  // Sent tab, per answer. `js` marks the Share button's fetcher, which wants the link back, not a page.
  z.object({ intent: z.literal("answer-share"), answerId: z.uuid(), js: z.literal("1").optional() }),
  z.object({ intent: z.literal("answer-unshare"), answerId: z.uuid() }),
  // Delete and re-record are confirmed with a required checkbox.
  z.object({ intent: z.enum(["answer-delete", "answer-rerecord"]), answerId: z.uuid(), confirm: z.literal("on") }),
]);

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const storytellerId = idParam(params.id);
  const back = `/dashboard/recipient/${storytellerId}`;
  const parsed = actionSchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!parsed.success) {
    const editTooLongOrShort = parsed.error.issues.some((issue) => issue.path[0] === "text");
    if (editTooLongOrShort) return redirectWithToast(request, context, back, { type: "error", key: "storytellers:toast.editFailed" });
    throw new Response("Bad Request", { status: 400 });
  }
  const input = parsed.data;
  switch (input.intent) {
    case "move-up":
    case "move-down":
      await movePrompt(context.db, user.id, storytellerId, input.promptId, input.intent === "move-up" ? "up" : "down");
      return redirect(back);
    case "place":
      await placePrompt(context.db, user.id, storytellerId, input.promptId, input.beforeId || null);
      return redirect(back);
    case "edit": {
      const result = await editPrompt(context.db, user.id, storytellerId, input.promptId, input.text);
      return result === "edited"
        ? redirectWithToast(request, context, back, { type: "success", key: "storytellers:toast.edited" })
        : redirectWithToast(request, context, back, { type: "error", key: "storytellers:toast.alreadyScheduled" });
    }
    case "delete":
      await deletePrompt(context.db, user.id, storytellerId, input.promptId);
      return redirectWithToast(request, context, back, { type: "success", key: "storytellers:toast.deleted" });
    case "pause":
    case "resume":
      await setPaused(context.db, user.id, storytellerId, input.intent === "pause");
      return redirectWithToast(request, context, back, { type: "success", key: `storytellers:toast.${input.intent === "pause" ? "paused" : "resumed"}` });
    case "send-now": {
      const prompt = await queuedPromptForSending(context.db, user.id, storytellerId, input.promptId);
      if ((await queueSendNow(context.db, prompt.id)) === "unreachable") {
        return redirectWithToast(request, context, back, { type: "error", key: "storytellers:toast.cannotSendNow" });
      }
      return redirectWithToast(request, context, back, { type: "success", key: "storytellers:toast.sendNowRequested" });
    }
    case "answer-share": {
      const { url } = await shareAnswer(context, user.id, storytellerId, input.answerId);
      if (input.js) return data({ shareUrl: url });
      return redirectWithToast(request, context, `${back}?sent=true`, { type: "success", key: "storytellers:answers.toast.shared" });
    }
    case "answer-unshare":
      await stopSharingAnswer(context.db, user.id, storytellerId, input.answerId);
      return redirectWithToast(request, context, `${back}?sent=true`, { type: "success", key: "storytellers:answers.toast.unshared" });
    case "answer-delete":
      try {
        await deleteAnswer(context, user.id, storytellerId, input.answerId);
      } catch (error) {
        if (error instanceof Response) throw error;
        console.error("[answers] delete failed:", (error as Error).message);
        return redirectWithToast(request, context, `${back}?sent=true`, { type: "error", key: "storytellers:answers.toast.deleteFailed" });
      }
      return redirectWithToast(request, context, `${back}?sent=true`, { type: "success", key: "storytellers:answers.toast.deleted" });
    case "answer-rerecord": {
      const result = await requestRerecord(context.db, user.id, storytellerId, input.answerId);
      return result === "requested"
        ? redirectWithToast(request, context, `${back}?sent=true`, { type: "success", key: "storytellers:answers.toast.rerecordRequested" })
        : redirectWithToast(request, context, `${back}?sent=true`, { type: "error", key: "storytellers:toast.cannotSendNow" });
    }
  }
}

export default function StorytellerView() {
  const { t } = useTranslation("storytellers");
  const { storyteller, queued, sent, nextPrompt, lastSent, canManage } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const locale = useRootData()?.locale ?? "en";
  const showSent = params.get("sent") === "true";
  return (
    <section className="flex flex-col gap-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">{storyteller.nickname}</h1>
          <p className="text-muted">
            {[storyteller.relationship, t(`fields.delivery.${storyteller.delivery_method}`), storyteller.frequency ? t(`frequency.${storyteller.frequency}`) : null].filter(Boolean).join(" · ")}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <AddPromptButton storytellerId={storyteller.id} />
          {canManage ? (
            <Link to={`/dashboard/recipient/${storyteller.id}/edit`} className="btn-secondary">
              {t("view.editStoryteller")}
            </Link>
          ) : null}
        </div>
      </header>
      <DeliveryState storyteller={storyteller} canManage={canManage} locale={locale} />
      <dl className="grid gap-4 min-[700px]:grid-cols-2">
        <div className="rounded-xl border border-line bg-panel p-4">
          <dt className="font-medium">{t("card.nextPrompt")}</dt>
          <dd className="text-muted">{nextPrompt?.text ?? t("card.noneQueued")}</dd>
        </div>
        <div className="rounded-xl border border-line bg-panel p-4">
          <dt className="font-medium">{t("card.lastSent")}</dt>
          <dd className="text-muted">{lastSent?.text ?? t("card.noneSent")}</dd>
        </div>
      </dl>
      <nav aria-label={t("view.tabs")} className="flex gap-2 border-b border-line">
        <Link to="?" aria-current={!showSent ? "page" : undefined} className="border-b-2 border-transparent px-3 py-2 aria-[current=page]:border-primary aria-[current=page]:font-semibold">
          {t("view.scheduled")} ({queued.length})
        </Link>
        <Link to="?sent=true" aria-current={showSent ? "page" : undefined} className="border-b-2 border-transparent px-3 py-2 aria-[current=page]:border-primary aria-[current=page]:font-semibold">
          {t("view.sent")} ({sent.length})
        </Link>
      </nav>
      {showSent ? <SentPrompts prompts={sent} locale={locale} canManage={canManage} /> : <PromptQueue prompts={queued} />}
    </section>
  );
}

type StorytellerState = ReturnType<typeof useLoaderData<typeof loader>>["storyteller"];

/** Whether questions are reaching the Storyteller, and if not, why; the owner pauses and resumes here. */
function DeliveryState({ storyteller, canManage, locale }: { storyteller: StorytellerState; canManage: boolean; locale: string }) {
  const { t } = useTranslation("storytellers");
  const vars = { name: storyteller.first_name, address: storyteller.email ?? "" };
  const problem =
    storyteller.delivery_method === "email"
      ? storyteller.unsubscribed_at
        ? t("delivery.unsubscribed", vars)
        : storyteller.email_undeliverable_at
          ? t("delivery.undeliverable", vars)
          : null
      : storyteller.sms_consent === "revoked"
        ? t("delivery.optedOut", vars)
        : storyteller.sms_consent !== "granted"
          ? t("delivery.awaitingConsent", vars)
          : null;
  const when = storyteller.next_send_at
    ? new Intl.DateTimeFormat(locale === "hi" ? "hi-IN" : "en-US", { dateStyle: "full", timeZone: storyteller.time_zone }).format(new Date(storyteller.next_send_at))
    : null;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-line bg-panel p-4" data-testid="delivery-state">
      <div className="flex flex-col gap-1">
        {problem ? <p className="text-danger">{problem}</p> : null}
        {storyteller.paused_at ? <p>{t("delivery.paused")}</p> : when ? <p>{t("delivery.nextSend", { when })}</p> : null}
      </div>
      {canManage ? (
        <Form method="post">
          <input type="hidden" name="intent" value={storyteller.paused_at ? "resume" : "pause"} />
          <button type="submit" className="btn-secondary">
            {t(storyteller.paused_at ? "delivery.resume" : "delivery.pause")}
          </button>
        </Form>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
