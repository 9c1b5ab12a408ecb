import type { Config } from "~/config.server";
import { getServerT } from "~/i18n/i18next.server";
import type { Frequency, Language } from "../../db/schema";
import type { OutgoingEmail, OutgoingSms } from "./outbox.server";

/** Everything a prompt message says; composed when it is sent, in the Storyteller's language. */
export type PromptMessageInput = {
  language: Language;
  storytellerName: string;
  askerName: string;
  promptText: string;
  recordUrl: string;
  /** Shown as the asker's photo; null draws their initial instead. */
  photoUrl: string | null;
  /** Answering by phone: the number to call and the prompt's code, both formatted (null when off). */
  callIn?: { number: string; code: string } | null;
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export async function composePromptEmail(
  config: Pick<Config, "APP_NAME" | "APP_URL" | "MAIL_POSTAL_ADDRESS">,
  input: PromptMessageInput & { to: string; unsubscribeUrl: string },
): Promise<OutgoingEmail> {
  const t = await getServerT(input.language, { config }, "delivery");
  const phoneT = await getServerT(input.language, { config }, "phone");
  const callInLine = input.callIn ? phoneT("callIn.email", input.callIn) : null;
  const vars = { name: input.storytellerName, asker: input.askerName };
  const e = escapeHtml;
  const photo = input.photoUrl
    ? `<img src="${e(input.photoUrl)}" width="64" height="64" alt="${e(input.askerName)}" style="border-radius:50%;display:block;margin:0 auto 12px">`
    : `<div style="width:64px;height:64px;border-radius:50%;background:#e8dccb;color:#5b3a1a;font-size:28px;line-height:64px;text-align:center;margin:0 auto 12px">${e(input.askerName.slice(0, 1).toUpperCase())}</div>`;
  const html = `<!doctype html>
<html lang="${input.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(t("promptEmail.subject", vars))}</title></head>
<body style="margin:0;padding:0;background:#f7f3ee;font-family:Arial,Helvetica,sans-serif;color:#2b2118">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border-radius:12px"><tr><td style="padding:28px 24px;text-align:center">
${photo}
<p style="font-size:18px;margin:0 0 8px">${e(t("promptEmail.greeting", vars))}</p>
<p style="font-size:18px;margin:0 0 16px">${e(t("promptEmail.intro", vars))}</p>
<p style="font-size:24px;line-height:1.35;font-weight:bold;margin:0 0 24px">“${e(input.promptText)}”</p>
<a href="${e(input.recordUrl)}" style="display:inline-block;background:#8a4b14;color:#ffffff;font-size:22px;font-weight:bold;text-decoration:none;padding:18px 28px;border-radius:10px">${e(t("promptEmail.button"))}</a>
<p style="font-size:16px;margin:20px 0 8px">${e(t("promptEmail.howTo"))}</p>
${callInLine ? `<p style="font-size:16px;margin:8px 0">${e(callInLine)}</p>\n` : ""}<p style="font-size:13px;color:#6b5b4b;margin:16px 0 0">${e(t("promptEmail.linkFallback"))}<br><a href="${e(input.recordUrl)}" style="color:#8a4b14;word-break:break-all">${e(input.recordUrl)}</a></p>
</td></tr></table>
<p style="font-size:12px;color:#6b5b4b;max-width:520px;margin:16px auto 0">${e(t("promptEmail.footer", vars))}<br>
<a href="${e(input.unsubscribeUrl)}" style="color:#6b5b4b">${e(t("promptEmail.unsubscribe"))}</a><br>${e(config.MAIL_POSTAL_ADDRESS)}</p>
</td></tr></table></body></html>`;
  const text = t("promptEmail.text", {
    ...vars,
    prompt: input.promptText,
    recordUrl: input.recordUrl,
    unsubscribeUrl: input.unsubscribeUrl,
    postalAddress: config.MAIL_POSTAL_ADDRESS,
  });
  return {
    to: input.to,
    subject: t("promptEmail.subject", vars),
    // The call-in line goes right under the record link, whatever the language's wording around it.
    text: callInLine ? text.replace(`${input.recordUrl}\n`, `${input.recordUrl}\n\n${callInLine}\n`) : text,
    html,
    headers: {
      // RFC 8058 one-click: mail clients POST "List-Unsubscribe=One-Click" to this URL.
      "List-Unsubscribe": `<${input.unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

export async function composePromptSms(
  config: Pick<Config, "APP_NAME" | "APP_URL">,
  input: PromptMessageInput & { to: string },
): Promise<OutgoingSms> {
  const t = await getServerT(input.language, { config }, "delivery");
  const text = t("promptSms", { asker: input.askerName, prompt: input.promptText, recordUrl: input.recordUrl });
  if (!input.callIn) return { to: input.to, text };
  const callInLine = (await getServerT(input.language, { config }, "phone"))("callIn.sms", input.callIn);
  return { to: input.to, text: text.replace(input.recordUrl, `${input.recordUrl} ${callInLine}`) };
}

export async function composeConsentRequest(
  config: Pick<Config, "APP_NAME" | "APP_URL">,
  input: { language: Language; askerName: string; frequency: Frequency },
) {
  const t = await getServerT(input.language, { config }, "delivery");
  return t("consent.request", { asker: input.askerName, frequency: t(`consent.frequency.${input.frequency}`) });
}
