import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { WHATSAPP_ACTION } from "./intents";

/** A voice note (any audio file) and/or a text, sent from `from` on the simulated WhatsApp. */
function WhatsAppFields({ idPrefix }: { idPrefix: string }) {
  const { t } = useTranslation("whatsapp");
  return (
    <>
      <label className="flex flex-col gap-1 text-sm" htmlFor={`${idPrefix}-note`}>
        {t("simulator.voiceNote")}
        <input id={`${idPrefix}-note`} type="file" name="voiceNote" accept="audio/*" />
      </label>
      <label className="flex flex-col gap-1 text-sm" htmlFor={`${idPrefix}-text`}>
        {t("simulator.text")}
        <input id={`${idPrefix}-text`} name="body" maxLength={1000} className="input" autoComplete="off" />
      </label>
      <button type="submit" className="btn-secondary">
        {t("simulator.send")}
      </button>
    </>
  );
}

/** The WhatsApp simulator: she writes first (STOP, START, a text, or a voice note to her newest question). */
export function WhatsAppSimulator() {
  const { t } = useTranslation("whatsapp");
  return (
    <section
      aria-labelledby="whatsapp-heading"
      className="mb-8 rounded-lg border border-line bg-panel p-4"
      data-testid="whatsapp-simulator"
    >
      <h2 id="whatsapp-heading" className="text-xl font-semibold">
        {t("simulator.title")}
      </h2>
      <p className="mb-3 text-sm text-muted">{t("simulator.intro")}</p>
      <Form
        method="post"
        action={WHATSAPP_ACTION}
        encType="multipart/form-data"
        className="flex flex-wrap items-end gap-2"
      >
        <label className="flex flex-col gap-1 text-sm">
          {t("simulator.from")}
          <input name="from" required defaultValue="+919812345678" className="input" autoComplete="off" />
        </label>
        <WhatsAppFields idPrefix="whatsapp-new" />
      </Form>
    </section>
  );
}

/** Under a WhatsApp message in the outbox: her reply to it (WhatsApp's "reply", which names the message). */
export function WhatsAppReply({ to, repliedTo }: { to: string; repliedTo: string | null }) {
  const { t } = useTranslation("whatsapp");
  return (
    <Form
      method="post"
      action={WHATSAPP_ACTION}
      encType="multipart/form-data"
      className="mt-3 flex flex-wrap items-end gap-2"
      data-testid="whatsapp-reply"
    >
      <p className="w-full text-sm font-medium">{t("simulator.replyTo")}</p>
      <input type="hidden" name="from" value={to} />
      {repliedTo ? <input type="hidden" name="repliedTo" value={repliedTo} /> : null}
      <WhatsAppFields idPrefix={`whatsapp-${repliedTo ?? to}`} />
    </Form>
  );
}
