import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FieldErrors } from "~/components/forms";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { queueTestPrompt } from "~/models/delivery.server";
import { numberHasSentStop } from "~/models/sms-consent.server";
import { getAccount, isSiteAdmin } from "~/models/user.server";
import { speechSetup } from "~/services/speech.server";
import { redirectWithToast } from "~/services/toast.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { parsePhone, usOrCanadianE164 } from "~/utils/phone.server";
import { readForm } from "~/utils/request-body.server";
import { countryOfRequest } from "~/utils/request-country.server";
import { deliveryMethods } from "~/utils/storyteller-choices";
import { choice, plainLine } from "~/utils/validation";

export const meta = titleFromLoader;

export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  const [{ phone_e164 }, siteAdmin] = await Promise.all([getAccount(context.db, user.id), isSiteAdmin(context, user)]);
  const speech = speechState(context.config);
  return {
    title: await pageTitle(request, context, "testPage.title"),
    email: user.email,
    phone: phone_e164 ?? "",
    // WhatsApp where this site sends it (or its outbox's simulator shows it).
    whatsapp: context.config.whatsappOn,
    // A command is for whoever runs the site; the rest of the family learns what they can do meanwhile.
    speech: siteAdmin || speech.state === "cloud" || speech.state === "ready" ? speech : { state: "notYet" as const },
  };
}

/** What the page says about transcription: no paths or versions, only what is missing and the command. */
function speechState(config: LoaderArgs["context"]["config"]) {
  if (config.TRANSCRIBE_URL) return { state: "cloud" as const };
  const setup = speechSetup(config);
  const model = setup.model.name.split(/[\\/]/).pop() ?? setup.model.name;
  if (!setup.engine) return { state: "noEngine" as const, command: "npm run speech:install" };
  if (!setup.model.installed)
    return {
      state: config.SPEECH_MODEL_DOWNLOAD && setup.model.approxMb ? ("noModel" as const) : ("noModelOffline" as const),
      model,
      size: setup.model.approxMb,
      command: "npm run speech:model",
    };
  return { state: "ready" as const, model };
}

type TestChannel = Exclude<(typeof deliveryMethods)[number], "call">;

/** Validated on the server only: two fields, no client validation code to ship. Each refusal is told on its field. */
export async function action({ request, context }: ActionArgs) {
  const user = await requireUser(request, context);
  // Built here, not at module level, so the browser's copy of this page carries no zod.
  // A test goes by every channel but a call (WhatsApp only where it is on).
  const channels = deliveryMethods.filter(
    (method): method is TestChannel => method !== "call" && (method !== "whatsapp" || context.config.whatsappOn),
  );
  const formSchema = z.object({
    channel: choice(channels as [TestChannel, ...TestChannel[]]),
    phone: plainLine(30).optional(),
  });
  const submission = parseWithZod(await readForm(request), { schema: formSchema });
  const refuse = (key: string) =>
    data({ result: submission.reply({ fieldErrors: { phone: [key] } }) }, { status: 400 });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { channel, phone } = submission.value;
  // Texts reach US and Canadian mobiles; WhatsApp any number, read as the account page reads it.
  const phoneE164 =
    channel === "sms"
      ? usOrCanadianE164(phone ?? "")
      : channel === "whatsapp"
        ? (parsePhone(phone ?? "", countryOfRequest(request))?.e164 ?? null)
        : null;
  if (channel === "sms" && !phoneE164) return refuse("testPage.phoneRequired");
  if (channel === "whatsapp" && !phoneE164) return refuse("testPage.whatsappPhoneRequired");
  if (phoneE164 && (await numberHasSentStop(context.db, phoneE164))) return refuse("testPage.optedOut");
  const limit = await context.rateLimit("testSendsPerUser", user.id);
  if (!limit.allowed)
    return redirectWithToast(request, context, "/dashboard/testpage", { type: "error", key: "testPage.tooMany" });
  await queueTestPrompt(
    context.db,
    context.config,
    user,
    channel !== "email" && phoneE164 ? { channel, phoneE164 } : { channel: "email" },
  );
  return redirectWithToast(request, context, "/dashboard/testpage", { type: "success", key: "testPage.sent" });
}

export default function TestPage() {
  const { t } = useTranslation();
  const { email, phone, whatsapp, speech } = useLoaderData<typeof loader>();
  const errors = useActionData<typeof action>()?.result.error;
  return (
    <section className="flex max-w-xl flex-col gap-4">
      <h1 className="text-2xl font-bold">{t("testPage.title")}</h1>
      <p>{t("testPage.lead")}</p>
      <Form method="post" className="flex flex-col gap-4 rounded-xl border border-line bg-panel p-4">
        <fieldset className="flex flex-col gap-2" aria-describedby={errors?.channel ? "test-channel-error" : undefined}>
          <legend className="font-medium">{t("testPage.channel")}</legend>
          <FieldErrors id="test-channel-error" errors={errors?.channel ?? undefined} />
          <label className="flex min-h-11 items-center gap-2 [overflow-wrap:anywhere]">
            <input type="radio" name="channel" value="email" defaultChecked /> {t("testPage.email", { address: email })}
          </label>
          <label className="flex min-h-11 items-center gap-2">
            <input type="radio" name="channel" value="sms" /> {t("testPage.sms")}
          </label>
          {whatsapp ? (
            <label className="flex min-h-11 items-center gap-2">
              <input type="radio" name="channel" value="whatsapp" /> {t("testPage.whatsapp")}
            </label>
          ) : null}
        </fieldset>
        <div className="flex flex-col gap-1">
          <label htmlFor="test-phone" className="font-medium">
            {t("testPage.phone")}
          </label>
          <p id="test-phone-hint" className="text-sm text-muted">
            {t(whatsapp ? "testPage.phoneHintWhatsApp" : "testPage.phoneHint")}
          </p>
          <input
            id="test-phone"
            name="phone"
            type="tel"
            autoComplete="tel"
            defaultValue={phone}
            className="input"
            aria-invalid={errors?.phone ? true : undefined}
            aria-describedby={errors?.phone ? "test-phone-hint test-phone-error" : "test-phone-hint"}
          />
          <FieldErrors id="test-phone-error" errors={errors?.phone ?? undefined} />
        </div>
        <button type="submit" className="btn-primary self-start">
          {t("testPage.submit")}
        </button>
      </Form>
      <p>
        <Link to="/record/sample" className="link-target">
          {t("testPage.samplePage")}
        </Link>
      </p>
      <section className="flex flex-col gap-2 rounded-xl border border-line bg-panel p-4" data-testid="speech-setup">
        <h2 className="text-lg font-semibold">{t("testPage.speech.heading")}</h2>
        <p>{t(`testPage.speech.${speech.state}`, speech)}</p>
        {"command" in speech ? (
          <>
            <pre className="rounded bg-surface p-2 whitespace-pre-wrap [overflow-wrap:anywhere]">
              <code>{speech.command}</code>
            </pre>
            <p className="text-sm text-muted">{t("testPage.speech.waiting")}</p>
          </>
        ) : null}
      </section>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
