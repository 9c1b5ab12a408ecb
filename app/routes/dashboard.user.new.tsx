import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form, useActionData, useLoaderData, data } from "react-router";
import type { z } from "zod";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Field, FieldErrors, SelectField, SubmissionField } from "~/components/forms";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { newSubmissionId, oncePerSubmission, submissionIdOf } from "~/models/form-submission.server";
import { inviteOneToGroup, type InviteToGroupResult, ownedGroups } from "~/models/group.server";
import { inviteToHeirloom } from "~/models/invitation.server";
import { redirectWithToast } from "~/services/toast.server";
import { formConstraints } from "~/utils/form-constraints.server";
import { inviteSchema } from "~/utils/invite-schema";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { readForm } from "~/utils/request-body.server";

export const handle = { i18n: ["account", "groups"] };
export const meta = titleFromLoader;

export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  return {
    title: await pageTitle(request, context, "invite.title", "account"),
    groups: await ownedGroups(context.db, user.id),
    constraint: formConstraints.invite,
    submissionId: newSubmissionId(),
  };
}

export async function action({ request, context }: ActionArgs) {
  const user = await requireUser(request, context);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: inviteSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const limit = await context.rateLimit("invitesPerUser", user.id);
  if (!limit.allowed)
    return data({ result: submission.reply({ formErrors: ["errors.rateLimited"] }) }, { status: 429 });
  const { groupId, email } = submission.value;
  const back = "/dashboard/user/new";
  // A second post of this drawing of the form (a double click) invites no one twice.
  const once = await oncePerSubmission(
    context.db,
    user.id,
    submissionIdOf(formData),
    async (tx): Promise<InviteToGroupResult> => {
      if (groupId) return inviteOneToGroup({ ...context, db: tx }, user, groupId, email);
      await inviteToHeirloom({ ...context, db: tx }, user, email);
      return { ok: true };
    },
    (invited) => (invited.ok ? back : null),
  );
  if (!once.repeat && !once.result.ok) {
    if (once.result.problem === "not-found") throw new Response(null, { status: 404 });
    return data({ result: submission.reply({ fieldErrors: once.result.fieldErrors }) }, { status: 400 });
  }
  return redirectWithToast(request, context, once.repeat ? once.location : back, {
    type: "success",
    key: "account:invite.sent",
    values: { email },
  });
}

export default function InviteSomeone() {
  const { t } = useTranslation("account");
  const actionData = useActionData<typeof action>();
  const { groups, constraint, submissionId } = useLoaderData<typeof loader>();
  const [form, fields] = useForm<z.input<typeof inviteSchema>>({
    lastResult: actionData?.result,
    constraint,
  });
  return (
    <section className="flex max-w-lg flex-col gap-4">
      <h1 className="text-2xl font-bold">{t("invite.title")}</h1>
      <p className="text-muted">{t("invite.intro")}</p>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-5">
        <FieldErrors id={form.errorId} errors={form.errors} />
        <SubmissionField id={submissionId} />
        <Field
          label={t("invite.email")}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off" }}
          errors={fields.email.errors}
        />
        {groups.length ? (
          <SelectField
            label={t("groups:invite.group")}
            selectProps={getSelectProps(fields.groupId)}
            errors={fields.groupId.errors}
          >
            <option value="">{t("groups:invite.noGroup")}</option>
            {groups.map((group) => (
              <option key={group.id} value={group.id}>
                {group.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        <button type="submit" className="btn-primary self-start">
          {t("invite.submit")}
        </button>
      </Form>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
