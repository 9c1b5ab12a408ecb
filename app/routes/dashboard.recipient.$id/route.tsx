import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, useLoaderData, useSearchParams } from "react-router";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { i18nServer } from "~/i18n/i18next.server";
import { idParam } from "~/utils/ids";
import { readerTimeZone } from "~/utils/intl-formats";
import { titleFromLoader } from "~/utils/meta";
import { readForm } from "~/utils/request-body.server";
import { useRootData } from "~/utils/root-data";
import { AddPromptButton } from "./add-prompt-dialog";
import { DeliveryState } from "./delivery-state";
import { Intent } from "./intents";
import { PromptQueue } from "./scheduled-tab";
import { actionSchema, type EditRefusal } from "./schema";
import { SentPrompts } from "./sent-tab";
import { performIntent, storytellerPage, storytellerPageRole } from "./server";

export const handle = { i18n: ["storytellers", "keep", "phone", "words"] };
export const meta = titleFromLoader;

const notFound = () => new Response(null, { status: 404 });

export async function loader({ request, context, params }: LoaderArgs) {
  const user = await requireUser(request, context);
  const storytellerId = idParam(params.id);
  if (!(await storytellerPageRole(context, user.id, storytellerId))) throw notFound();
  const tab = new URL(request.url).searchParams.get("sent") === "true" ? "sent" : "scheduled";
  const page = await storytellerPage(
    context,
    user.id,
    storytellerId,
    tab,
    await i18nServer.getLocale(request),
    readerTimeZone(user),
  );
  if (!page) throw notFound();
  return page;
}

export async function action({ request, context, params }: ActionArgs) {
  const user = await requireUser(request, context);
  const storytellerId = idParam(params.id);
  // The loader's guard, before the post is read: a page that is a 404 takes no post at all.
  if (!(await storytellerPageRole(context, user.id, storytellerId))) throw notFound();
  const submission = parseWithZod(await readForm(request), { schema: actionSchema });
  if (submission.status !== "success") {
    // The one field typed here is an edited question: its problem is told beside it (the edit form
    // stays open, as the post went to ?edit=…), with what was typed.
    const promptId = submission.payload.promptId;
    if (submission.payload.intent === Intent.edit && submission.error?.text && typeof promptId === "string")
      return data({ form: Intent.edit, promptId, result: submission.reply() } satisfies EditRefusal, { status: 400 });
    // Buttons only, nothing to show beside a field: an unknown intent or a malformed post is a plain 400.
    throw new Response("Bad Request", { status: 400 });
  }
  const response = await performIntent({ request, context, userId: user.id, storytellerId }, submission.value);
  if (!response) throw notFound();
  return response;
}

export default function StorytellerView() {
  const { t } = useTranslation("storytellers");
  const { storyteller, queued, sent, counts, nextPrompt, lastSent, canManage, role } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const locale = useRootData()?.locale ?? "en";
  const showSent = params.get("sent") === "true";
  return (
    <section className="flex flex-col gap-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">{storyteller.nickname}</h1>
          <p className="text-muted">
            {[
              storyteller.relationship,
              t(`fields.delivery.${storyteller.delivery_method}`),
              storyteller.frequency ? t(`frequency.${storyteller.frequency}`) : null,
            ]
              .filter(Boolean)
              .join(" · ")}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <AddPromptButton storytellerId={storyteller.id} />
          <Link to={`/dashboard/recipient/${storyteller.id}/keep`} className="btn-secondary">
            {t("keep:keepLink")}
          </Link>
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
      <nav aria-label={t("view.tabs")} className="flex flex-wrap gap-2 border-b border-line">
        <Link
          to="?"
          aria-current={!showSent ? "page" : undefined}
          className="inline-flex min-h-11 items-center border-b-2 border-transparent px-3 aria-[current=page]:border-primary aria-[current=page]:font-semibold"
        >
          {t("view.scheduled")} ({counts.queued})
        </Link>
        <Link
          to="?sent=true"
          aria-current={showSent ? "page" : undefined}
          className="inline-flex min-h-11 items-center border-b-2 border-transparent px-3 aria-[current=page]:border-primary aria-[current=page]:font-semibold"
        >
          {t("view.sent")} ({counts.sent})
        </Link>
      </nav>
      {showSent ? (
        <SentPrompts
          prompts={sent}
          locale={locale}
          storyteller={storyteller}
          storytellerId={storyteller.id}
          canManage={canManage}
        />
      ) : (
        <PromptQueue prompts={queued} canSendNow={canManage} isCollaborator={role === "collaborator"} />
      )}
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
