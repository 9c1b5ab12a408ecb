import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import type { z } from "zod";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FamilyNotesSwitch } from "~/components/family-notes-switch";
import { FieldErrors } from "~/components/forms";
import { ScheduleFields, StorytellerFields } from "~/components/storyteller-fields";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { i18nServer } from "~/i18n/i18next.server";
import {
  checkFirstPromptDate,
  deleteStoryteller,
  getOwnedStoryteller,
  saveStoryteller,
  type SaveStorytellerResult,
} from "~/models/storyteller.server";
import { log } from "~/services/logger.server";
import { redirectWithToast } from "~/services/toast.server";
import { formConstraints } from "~/utils/form-constraints.server";
import { idParam } from "~/utils/ids";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { nationalFormat } from "~/utils/phone.server";
import { readForm } from "~/utils/request-body.server";
import { storytellerFormLists } from "~/utils/storyteller-form.server";
import type { storytellerWithScheduleSchema } from "~/utils/storyteller-schema";
import { zoneSearchFirst } from "~/utils/time-zones";
import { Intent } from "./intents";
import { editSchema } from "./schema";

export const handle = { i18n: ["storytellers"] };
export const meta = titleFromLoader;

const notFound = () => new Response(null, { status: 404 });

export async function loader({ request, context, params }: LoaderArgs) {
  const user = await requireUser(request, context);
  const storyteller = await getOwnedStoryteller(context.db, user.id, idParam(params.id));
  if (!storyteller) throw notFound();
  return {
    title: await pageTitle(request, context, "view.editStoryteller", "storytellers"),
    storyteller,
    // Her number as people in her country write it, shown beside that country.
    phone: storyteller.phone_e164 ? nationalFormat(storyteller.phone_e164) : "",
    // Places and countries in the reader's language.
    ...storytellerFormLists(request, await i18nServer.getLocale(request), storyteller.phone_e164),
    constraint: formConstraints.storytellerWithSchedule,
  };
}

export async function action({ request, context, params }: ActionArgs) {
  const user = await requireUser(request, context);
  const current = await getOwnedStoryteller(context.db, user.id, idParam(params.id));
  if (!current) throw notFound();
  const submission = parseWithZod(zoneSearchFirst(await readForm(request)), { schema: editSchema });
  // Which of the page's two forms a refusal goes back to.
  const form = submission.payload.intent === Intent.delete ? Intent.delete : Intent.update;
  if (submission.status !== "success") return data({ form, result: submission.reply() }, { status: 400 });

  if (submission.value.intent === Intent.delete) {
    if (!(await deleteStoryteller(context, user.id, current.id))) throw notFound();
    return redirectWithToast(request, context, "/dashboard", {
      type: "success",
      key: "storytellers:toast.storytellerDeleted",
    });
  }
  const { intent: _update, ...fields } = submission.value;
  // A new first date as onboarding takes one; the one they have stands, even once it has passed.
  const dateErrors = checkFirstPromptDate(fields, { current: current.first_prompt_date });
  if (dateErrors) return data({ form, result: submission.reply({ fieldErrors: dateErrors }) }, { status: 400 });
  const back = `/dashboard/recipient/${current.id}`;
  let saved: SaveStorytellerResult;
  try {
    saved = await saveStoryteller(context, { userId: user.id, storytellerId: current.id }, fields);
  } catch (error) {
    log.error({ module: "storyteller", err: error }, "update failed");
    return redirectWithToast(request, context, back, { type: "error", key: "storytellers:toast.updateFailed" });
  }
  if (!saved.ok && saved.problem === "not-found") throw notFound();
  if (!saved.ok) return data({ form, result: submission.reply({ fieldErrors: saved.fieldErrors }) }, { status: 400 });
  return redirectWithToast(request, context, back, { type: "success", key: "storytellers:toast.updated" });
}

export default function EditStoryteller() {
  const { t } = useTranslation("storytellers");
  const { storyteller, phone, timeZones, phoneCountries, phoneCountry, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm<z.input<typeof storytellerWithScheduleSchema>>({
    lastResult: actionData?.form === Intent.update ? actionData.result : undefined,
    constraint,
    defaultValue: {
      nickname: storyteller.nickname,
      firstName: storyteller.first_name,
      relationship: storyteller.relationship,
      deliveryMethod: storyteller.delivery_method,
      email: storyteller.email ?? "",
      phone,
      phoneCountry,
      // The owner's word, once given, stands through the number's opt-out (only the number's own
      // START lifts that, never a second tick), so the box stays ticked while calls are stopped.
      callConsent: storyteller.call_consent === "none" ? undefined : "on",
      // A WhatsApp Storyteller was saved with the owner's word (the form requires it).
      whatsappConsent: storyteller.delivery_method === "whatsapp" ? "on" : undefined,
      timeZone: storyteller.time_zone,
      language: storyteller.language,
      firstPromptDate: storyteller.first_prompt_date,
      frequency: storyteller.frequency,
    },
  });
  const deleteErrors = actionData?.form === Intent.delete ? actionData.result.error?.confirm : undefined;
  return (
    <section className="flex max-w-3xl flex-col gap-6">
      <h1 className="text-2xl font-bold">{t("view.editStoryteller")}</h1>
      <Form
        method="post"
        {...getFormProps(form)}
        className="grid grid-cols-1 gap-5 rounded-xl border border-line bg-panel p-6 max-sm:p-4 min-[700px]:grid-cols-2"
      >
        <FieldErrors id={form.errorId} errors={form.errors} />
        <StorytellerFields
          fields={fields}
          timeZones={timeZones}
          phoneCountries={phoneCountries}
          enterSubmits={{ name: "intent", value: Intent.update }}
        />
        <ScheduleFields fields={fields} />
        <div className="flex flex-wrap gap-3 min-[700px]:col-span-2">
          <button type="submit" name="intent" value={Intent.update} className="btn-primary">
            {t("view.save")}
          </button>
          <Link to={`/dashboard/recipient/${storyteller.id}`} className="btn-secondary">
            {t("view.cancel")}
          </Link>
        </div>
      </Form>
      <FamilyNotesSwitch
        storytellerId={storyteller.id}
        name={storyteller.nickname}
        on={storyteller.reaction_digest_on}
      />
      <Form method="post" className="flex flex-col gap-3 rounded-xl border border-danger p-6">
        <h2 className="text-lg font-semibold">{t("edit.deleteTitle")}</h2>
        <p className="text-muted">{t("edit.deleteBody", { name: storyteller.nickname })}</p>
        <FieldErrors id="delete-storyteller-errors" errors={deleteErrors ?? undefined} />
        <label className="flex items-center gap-2">
          <input type="checkbox" name="confirm" required />
          {t("edit.confirm")}
        </label>
        <button type="submit" name="intent" value={Intent.delete} className="btn-danger self-start">
          {t("edit.delete")}
        </button>
      </Form>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
