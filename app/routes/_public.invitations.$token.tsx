import { useTranslation } from "react-i18next";
import { data, Form, type HeadersFunction, Link, redirect, useActionData, useLoaderData } from "react-router";
import { getSessionUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { ActionArgs, LoaderArgs } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import { capabilityPageHeaders } from "~/models/capability-links.server";
import { acceptInvitation, invitationForToken } from "~/models/group.server";
import { redirectWithToast } from "~/services/toast.server";
import { titleFromLoader } from "~/utils/meta";

export const handle = { i18n: ["groups"] };
export const meta = titleFromLoader;
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;

const here = (token: string) => `/invitations/${token}`;

/** GET only shows the invitation (mail scanners open links, and opening must change nothing). */
export async function loader({ request, context, params }: LoaderArgs) {
  const t = await getServerT(request, context, "groups");
  const title = `${t("invitation.title")} · ${context.config.APP_NAME}`;
  const user = await getSessionUser(request, context);
  const invitation = await invitationForToken(context, params.token!, user?.id ?? null);
  if (!invitation) return data({ title, found: false as const }, { status: 404, headers: capabilityPageHeaders });
  return data(
    {
      title,
      found: true as const,
      status: invitation.status,
      groupName: invitation.group_name,
      description: invitation.group_description,
      storyteller: invitation.storyteller_nickname,
      inviter: invitation.inviter_name,
      email: invitation.email,
      signedInAs: user?.email ?? null,
      sameAddress: user ? user.email.toLowerCase() === invitation.email.toLowerCase() : false,
      // Someone in the group (who accepted, or was in it already) is shown the way to the Storyteller.
      storytellerUrl: invitation.viewer_is_member ? `/dashboard/recipient/${invitation.storyteller_id}` : null,
      signInUrl: `/auth/login?${new URLSearchParams({ redirectTo: here(params.token!) })}`,
      registerUrl: `/auth/register?${new URLSearchParams({ email: invitation.email, redirectTo: here(params.token!) })}`,
    },
    { headers: capabilityPageHeaders },
  );
}

/** Accepting needs the invited address signed in; signed out, it goes to sign in and comes back. */
export async function action({ request, context, params }: ActionArgs) {
  const user = await getSessionUser(request, context);
  if (!user) throw redirect(`/auth/login?${new URLSearchParams({ redirectTo: here(params.token!) })}`);
  const accepted = await acceptInvitation(context, params.token!, user);
  if (accepted.ok)
    return redirectWithToast(request, context, `/dashboard/groups/${accepted.groupId}`, {
      type: "success",
      key: "groups:toast.joined",
      values: { group: accepted.groupName },
    });
  if (accepted.problem === "not-found")
    return data({ problem: "not-found" as const }, { status: 404, headers: capabilityPageHeaders });
  return data({ problem: accepted.problem }, { status: 409, headers: capabilityPageHeaders });
}

export default function Invitation() {
  const { t } = useTranslation("groups");
  const page = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  if (!page.found || refused?.problem === "not-found") {
    return (
      <article className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-12">
        <h1 className="text-3xl font-bold">{t("invitation.notFound")}</h1>
        <p>{t("invitation.notFoundDetail")}</p>
      </article>
    );
  }
  const status = refused && refused.problem !== "wrong-email" ? refused.problem : page.status;
  return (
    <article className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-12">
      <h1 className="text-3xl font-bold">{t("invitation.heading", { group: page.groupName })}</h1>
      <p>{t("invitation.lead", { inviter: page.inviter ?? t("invitation.someone"), storyteller: page.storyteller })}</p>
      <p className="text-muted">{page.description}</p>
      {status !== "open" ? (
        <>
          <p role="status" className="rounded-lg border border-line p-3">
            {t(`invitation.status.${status}`)}
          </p>
          {page.storytellerUrl ? (
            <Link to={page.storytellerUrl} className="btn-primary self-start">
              {t("invitation.openStoryteller", { storyteller: page.storyteller })}
            </Link>
          ) : null}
        </>
      ) : !page.signedInAs ? (
        <>
          <p>{t("invitation.signInFirst", { email: page.email })}</p>
          <div className="flex flex-wrap gap-3">
            <Link to={page.registerUrl} className="btn-primary">
              {t("invitation.register")}
            </Link>
            <Link to={page.signInUrl} className="btn-secondary">
              {t("invitation.signIn")}
            </Link>
          </div>
        </>
      ) : !page.sameAddress || refused?.problem === "wrong-email" ? (
        <p role="alert" className="rounded-lg border border-danger p-3">
          {t("invitation.wrongEmail", { email: page.email, current: page.signedInAs })}
        </p>
      ) : (
        <Form method="post">
          <button type="submit" className="btn-primary">
            {t("invitation.accept")}
          </button>
        </Form>
      )}
    </article>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
