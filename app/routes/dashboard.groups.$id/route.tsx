import { getFormProps, useForm } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { Form, Link, useActionData, useLoaderData } from "react-router";
import type { z } from "zod";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FieldErrors } from "~/components/forms";
import { GroupDetailsFields } from "~/components/group-fields";
import type { ActionArgs, LoaderArgs } from "~/context.server";
import { getGroupPage } from "~/models/group.server";
import { formConstraints } from "~/utils/form-constraints.server";
import type { groupDetailsSchema } from "~/utils/group-schema";
import { idParam } from "~/utils/ids";
import { titleFromLoader } from "~/utils/meta";
import { readForm } from "~/utils/request-body.server";
import { type Confirmable, confirmable, Intent } from "./intents";
import { groupPageAction } from "./server";

export const handle = { i18n: ["groups"] };
export const meta = titleFromLoader;

const notFound = () => new Response(null, { status: 404 });

/**
 * What ?confirm= asks before an irreversible action, when it names something this user may do it
 * to (else nothing is asked): a plain link to it works without JavaScript.
 */
function confirmationOf(
  url: URL,
  page: NonNullable<Awaited<ReturnType<typeof getGroupPage>>>,
): { intent: Confirmable; targetId?: string; label?: string; books?: number } | null {
  const intent = url.searchParams.get("confirm") as Confirmable | null;
  const targetId = url.searchParams.get("target") ?? undefined;
  if (!intent || !confirmable.includes(intent)) return null;
  const owner = page.role === "owner";
  if (intent === Intent.leave) return owner ? null : { intent };
  if (!owner) return null;
  if (intent === Intent.delete) return { intent };
  if (intent === Intent.remove) {
    const member = page.members.find((m) => m.id === targetId && m.role !== "owner");
    return member
      ? { intent, targetId, label: `${member.first_name} ${member.last_name}`.trim(), books: member.books }
      : null;
  }
  const invitation = page.invitations.find((i) => i.id === targetId);
  return invitation ? { intent, targetId, label: invitation.email } : null;
}

export async function loader({ request, context, params }: LoaderArgs) {
  const user = await requireUser(request, context);
  const page = await getGroupPage(context.db, user.id, idParam(params.id));
  if (!page) throw notFound();
  return {
    title: `${page.name} · ${context.config.APP_NAME}`,
    page,
    confirm: confirmationOf(new URL(request.url), page),
    constraint: formConstraints.groupDetails,
  };
}

export async function action({ request, context, params }: ActionArgs) {
  const user = await requireUser(request, context);
  const groupId = idParam(params.id);
  return groupPageAction({ request, context, user, groupId, formData: await readForm(request) });
}

function ConfirmPanel({
  confirm,
  groupId,
  storyteller,
}: {
  confirm: NonNullable<ReturnType<typeof confirmationOf>>;
  groupId: string;
  storyteller: { id: string; nickname: string };
}) {
  const { t } = useTranslation("groups");
  return (
    <section
      aria-labelledby="confirm-heading"
      className="flex flex-col gap-3 rounded-xl border border-danger bg-panel p-6"
    >
      <h2 id="confirm-heading" className="text-lg font-semibold">
        {t(`page.confirm.${confirm.intent}`, { name: confirm.label })}
      </h2>
      {confirm.books ? (
        <p>
          {t("page.confirm.removeBooks", {
            name: confirm.label,
            storyteller: storyteller.nickname,
            count: confirm.books,
          })}{" "}
          <Link to={`/dashboard/recipient/${storyteller.id}/keep#links-heading`} className="link">
            {t("page.confirm.removeBooksLink")}
          </Link>
        </p>
      ) : null}
      <Form method="post" className="flex flex-wrap gap-3">
        <input type="hidden" name="confirm" value="yes" />
        {confirm.intent === Intent.remove ? <input type="hidden" name="memberId" value={confirm.targetId} /> : null}
        {confirm.intent === Intent.revoke ? <input type="hidden" name="invitationId" value={confirm.targetId} /> : null}
        <button type="submit" name="intent" value={confirm.intent} className="btn-danger">
          {t(`page.confirm.${confirm.intent}Button`)}
        </button>
        <Link to={`/dashboard/groups/${groupId}`} className="btn-secondary">
          {t("page.cancel")}
        </Link>
      </Form>
    </section>
  );
}

function EditForm({ name, description }: { name: string; description: string }) {
  const { t } = useTranslation("groups");
  const actionData = useActionData<typeof action>();
  const { constraint } = useLoaderData<typeof loader>();
  const [form, fields] = useForm<z.input<typeof groupDetailsSchema>>({
    id: "group-edit",
    lastResult: actionData?.result,
    constraint,
    defaultValue: { name, description },
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="flex flex-col gap-4 rounded-xl border border-line bg-panel p-6"
    >
      <h2 className="text-lg font-semibold">{t("page.edit")}</h2>
      <FieldErrors id={form.errorId} errors={form.errors} />
      <GroupDetailsFields fields={fields} />
      <button type="submit" name="intent" value={Intent.update} className="btn-primary self-start">
        {t("page.save")}
      </button>
    </Form>
  );
}

export default function GroupPage() {
  const { t } = useTranslation("groups");
  const { page, confirm } = useLoaderData<typeof loader>();
  const owner = page.role === "owner";
  const here = `/dashboard/groups/${page.id}`;
  const ask = (intent: Confirmable, target?: string) =>
    `${here}?${new URLSearchParams(target ? { confirm: intent, target } : { confirm: intent })}`;
  return (
    <section className="flex max-w-3xl flex-col gap-6">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold">{page.name}</h1>
        <p className="text-muted">{page.description}</p>
        <p>
          {t("page.storyteller")}{" "}
          <Link to={`/dashboard/recipient/${page.storyteller_id}`} className="link">
            {page.storyteller}
          </Link>
        </p>
      </header>
      {confirm ? (
        <ConfirmPanel
          confirm={confirm}
          groupId={page.id}
          storyteller={{ id: page.storyteller_id, nickname: page.storyteller }}
        />
      ) : null}
      {owner ? <EditForm name={page.name} description={page.description} /> : null}
      <section aria-labelledby="members-heading" className="flex flex-col gap-2">
        <h2 id="members-heading" className="text-lg font-semibold">
          {t("page.members")}
        </h2>
        <ul className="flex flex-col gap-2">
          {page.members.map((member) => (
            <li key={member.id} className="flex flex-wrap items-center gap-3">
              <span className="min-w-0 [overflow-wrap:anywhere]">
                {`${member.first_name} ${member.last_name}`.trim()} · {member.email}
              </span>
              <span className="text-sm text-muted">{t(`page.role.${member.role}`)}</span>
              {owner && member.role !== "owner" ? (
                <Link to={ask(Intent.remove, member.id)} className="btn-quiet text-danger underline">
                  {t("page.remove")}
                  <span className="sr-only"> {member.first_name}</span>
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
      {owner ? (
        <section aria-labelledby="invitations-heading" className="flex flex-col gap-2">
          <h2 id="invitations-heading" className="text-lg font-semibold">
            {t("page.invitations")}
          </h2>
          {page.invitations.length ? (
            <ul className="flex flex-col gap-2">
              {page.invitations.map((invitation) => (
                <li key={invitation.id} className="flex flex-wrap items-center gap-3">
                  <span className="min-w-0 [overflow-wrap:anywhere]">{invitation.email}</span>
                  <span className="text-sm text-muted">
                    {invitation.expired ? t("page.expired") : t("page.pending")}
                  </span>
                  <Form method="post">
                    <input type="hidden" name="invitationId" value={invitation.id} />
                    <button type="submit" name="intent" value={Intent.resend} className="btn-quiet underline">
                      {t("page.resend")}
                      <span className="sr-only"> {invitation.email}</span>
                    </button>
                  </Form>
                  <Link to={ask(Intent.revoke, invitation.id)} className="btn-quiet text-danger underline">
                    {t("page.revoke")}
                    <span className="sr-only"> {invitation.email}</span>
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-muted">{t("page.noInvitations")}</p>
          )}
        </section>
      ) : null}
      <div>
        {owner ? (
          <Link to={ask(Intent.delete)} className="btn-danger">
            {t("page.delete")}
          </Link>
        ) : (
          <Link to={ask(Intent.leave)} className="btn-danger">
            {t("page.leave")}
          </Link>
        )}
      </div>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
