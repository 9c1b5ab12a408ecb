import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import type { ReachProblem } from "~/models/delivery.server";
import { dateTimeFormat, intlLocale } from "~/utils/intl-formats";
import { Intent } from "./intents";

type StorytellerState = {
  first_name: string;
  email: string | null;
  reach: ReachProblem | null;
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
  // Why nothing reaches her is canReceive's reading (reachProblem), made by the loader.
  const problem = storyteller.reach ? t(`delivery.${storyteller.reach}`, vars) : null;
  const when = storyteller.next_send_at
    ? dateTimeFormat(intlLocale(locale), { dateStyle: "full", timeZone: storyteller.time_zone }).format(
        new Date(storyteller.next_send_at),
      )
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
