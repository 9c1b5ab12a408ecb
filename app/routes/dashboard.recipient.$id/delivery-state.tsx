import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Intent } from "./intents";

type StorytellerState = {
  first_name: string;
  email: string | null;
  delivery_method: "email" | "sms" | "call" | "whatsapp";
  unsubscribed_at: Date | string | null;
  email_undeliverable_at: Date | string | null;
  sms_consent: string;
  call_consent: string;
  next_send_at: Date | string | null;
  paused_at: Date | string | null;
  time_zone: string;
  /** Her time zone in words, in the reader's language ("Kolkata, India"). */
  zone_place: string;
};

/** Whether questions are reaching the Storyteller, and if not, why; the owner pauses and resumes here. */
export function DeliveryState({
  storyteller,
  canManage,
  locale,
}: {
  storyteller: StorytellerState;
  canManage: boolean;
  locale: string;
}) {
  const { t } = useTranslation("storytellers");
  const vars = { name: storyteller.first_name, address: storyteller.email ?? "" };
  const problem =
    storyteller.delivery_method === "email"
      ? storyteller.unsubscribed_at
        ? t("delivery.unsubscribed", vars)
        : storyteller.email_undeliverable_at
          ? t("delivery.undeliverable", vars)
          : null
      : storyteller.delivery_method === "call"
        ? storyteller.call_consent === "revoked"
          ? t("delivery.callOptedOut", vars)
          : storyteller.call_consent !== "granted"
            ? t("delivery.callAwaitingConsent", vars)
            : null
        : storyteller.sms_consent === "revoked"
          ? t("delivery.optedOut", vars)
          : storyteller.sms_consent !== "granted"
            ? t("delivery.awaitingConsent", vars)
            : null;
  const when = storyteller.next_send_at
    ? new Intl.DateTimeFormat(locale === "hi" ? "hi-IN" : "en-US", {
        dateStyle: "full",
        timeZone: storyteller.time_zone,
      }).format(new Date(storyteller.next_send_at))
    : null;
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-line bg-panel p-4"
      data-testid="delivery-state"
    >
      <div className="flex flex-col gap-1">
        {problem ? <p className="text-danger">{problem}</p> : null}
        {storyteller.paused_at ? (
          <p>{t("delivery.paused")}</p>
        ) : when ? (
          <p>{t("delivery.nextSend", { when, place: storyteller.zone_place })}</p>
        ) : null}
      </div>
      {canManage ? (
        <Form method="post">
          <button
            type="submit"
            name="intent"
            value={storyteller.paused_at ? Intent.resume : Intent.pause}
            className="btn-secondary"
          >
            {t(storyteller.paused_at ? "delivery.resume" : "delivery.pause")}
          </button>
        </Form>
      ) : null}
    </div>
  );
}
