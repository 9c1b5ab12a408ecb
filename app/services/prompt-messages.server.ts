import type { Config } from "~/config.server";
import { getServerT } from "~/i18n/i18next.server";
import { escapeHtml } from "~/utils/html";
import { oneLine } from "~/utils/validation";
import type { Frequency, Language } from "../../db/schema";
import type { OutgoingEmail, OutgoingSms, OutgoingWhatsApp } from "./outbox.server";

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

/**
 * A message with holes: composed once per language and install through i18next with a marker in
 * each variable's place, then filled per message. The scheduler composes 100,000 prompts a minute,
 * and i18next's interpolation per message cost more than everything else in a send.
 */
type Template = { parts: string[]; slots: string[] };
const MARK = "\u0001";
const slot = (name: string) => `${MARK}${name}${MARK}`;

function compile(text: string): Template {
  const pieces = text.split(MARK);
  return { parts: pieces.filter((_, i) => i % 2 === 0), slots: pieces.filter((_, i) => i % 2 === 1) };
}

function fill(template: Template, values: Record<string, string>): string {
  let out = template.parts[0];
  for (let i = 0; i < template.slots.length; i++) out += values[template.slots[i]] + template.parts[i + 1];
  return out;
}

type EmailTemplates = { subject: Template; text: Template; html: Template };
const emailTemplates = new Map<string, Promise<EmailTemplates>>();

async function promptEmailTemplates(
  config: Pick<Config, "APP_NAME" | "APP_URL" | "MAIL_POSTAL_ADDRESS">,
  language: Language,
): Promise<EmailTemplates> {
  const t = await getServerT(language, { config }, "delivery");
  const vars = { name: slot("name"), asker: slot("asker") };
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(t("promptEmail.subject", vars))}</title></head>
<body style="margin:0;padding:0;background:#f7f3ee;font-family:Arial,Helvetica,sans-serif;color:#2b2118">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border-radius:12px"><tr><td style="padding:28px 24px;text-align:center">
${slot("photo")}
<p style="font-size:18px;margin:0 0 8px">${e(t("promptEmail.greeting", vars))}</p>
<p style="font-size:18px;margin:0 0 16px">${e(t("promptEmail.intro", vars))}</p>
<p style="font-size:24px;line-height:1.35;font-weight:bold;margin:0 0 24px">“${slot("prompt")}”</p>
<a href="${slot("recordUrl")}" style="display:inline-block;background:#8a4b14;color:#ffffff;font-size:22px;font-weight:bold;text-decoration:none;padding:18px 28px;border-radius:10px">${e(t("promptEmail.button"))}</a>
<p style="font-size:16px;margin:20px 0 8px">${e(t("promptEmail.howTo"))}</p>
${slot("callIn")}<p style="font-size:13px;color:#6b5b4b;margin:16px 0 0">${e(t("promptEmail.linkFallback"))}<br><a href="${slot("recordUrl")}" style="color:#8a4b14;word-break:break-all">${slot("recordUrl")}</a></p>
</td></tr></table>
<p style="font-size:12px;color:#6b5b4b;max-width:520px;margin:16px auto 0">${e(t("promptEmail.footer", vars))}<br>
<a href="${slot("unsubscribeUrl")}" style="color:#6b5b4b">${e(t("promptEmail.unsubscribe"))}</a><br>${e(config.MAIL_POSTAL_ADDRESS)}</p>
</td></tr></table></body></html>`;
  return {
    subject: compile(t("promptEmail.subject", vars)),
    text: compile(
      t("promptEmail.text", {
        ...vars,
        prompt: slot("prompt"),
        recordUrl: slot("recordUrl"),
        unsubscribeUrl: slot("unsubscribeUrl"),
        postalAddress: config.MAIL_POSTAL_ADDRESS,
      }),
    ),
    html: compile(html),
  };
}

export async function composePromptEmail(
  config: Pick<Config, "APP_NAME" | "APP_URL" | "MAIL_POSTAL_ADDRESS">,
  input: PromptMessageInput & { to: string; unsubscribeUrl: string; replyTo?: string | null },
): Promise<OutgoingEmail> {
  const key = `${input.language}\u0000${config.APP_NAME}\u0000${config.APP_URL}\u0000${config.MAIL_POSTAL_ADDRESS}`;
  let templates = emailTemplates.get(key);
  if (!templates) emailTemplates.set(key, (templates = promptEmailTemplates(config, input.language)));
  const { subject, text, html } = await templates;
  const raw = {
    name: oneLine(input.storytellerName),
    asker: oneLine(input.askerName),
    prompt: input.promptText,
    recordUrl: input.recordUrl,
    unsubscribeUrl: input.unsubscribeUrl,
  };
  // "Or call … and enter …" (answering by phone): per message, since each prompt has its own code.
  const callInLine = input.callIn
    ? (await getServerT(input.language, { config }, "phone"))("callIn.email", input.callIn)
    : null;
  const e = escapeHtml;
  const photo = input.photoUrl
    ? `<img src="${e(input.photoUrl)}" width="64" height="64" alt="${e(input.askerName)}" style="border-radius:50%;display:block;margin:0 auto 12px">`
    : `<div style="width:64px;height:64px;border-radius:50%;background:#e8dccb;color:#5b3a1a;font-size:28px;line-height:64px;text-align:center;margin:0 auto 12px">${e(input.askerName.slice(0, 1).toUpperCase())}</div>`;
  const escaped = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, e(v)]));
  const callInHtml = callInLine ? `<p style="font-size:16px;margin:8px 0">${e(callInLine)}</p>\n` : "";
  const filledText = fill(text, raw);
  return {
    to: input.to,
    subject: fill(subject, raw),
    // The call-in line goes right under the record link, whatever the language's wording around it.
    text: callInLine ? filledText.replace(`${input.recordUrl}\n`, `${input.recordUrl}\n\n${callInLine}\n`) : filledText,
    html: fill(html, { ...escaped, photo, callIn: callInHtml }),
    headers: {
      // RFC 8058 one-click: mail clients POST "List-Unsubscribe=One-Click" to this URL.
      "List-Unsubscribe": `<${input.unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      // Her reply answers this question (app/models/email-reply.server.ts).
      ...(input.replyTo ? { "Reply-To": input.replyTo } : {}),
    },
  };
}

export async function composePromptSms(
  config: Pick<Config, "APP_NAME" | "APP_URL">,
  input: PromptMessageInput & { to: string },
): Promise<OutgoingSms> {
  const t = await getServerT(input.language, { config }, "delivery");
  const text = t("promptSms", {
    asker: oneLine(input.askerName),
    prompt: input.promptText,
    recordUrl: input.recordUrl,
  });
  if (!input.callIn) return { to: input.to, text };
  const callInLine = (await getServerT(input.language, { config }, "phone"))("callIn.sms", input.callIn);
  return { to: input.to, text: text.replace(input.recordUrl, `${input.recordUrl} ${callInLine}`) };
}

/**
 * A question on WhatsApp: the approved template of her language (its Content SID is configuration),
 * filled with numbered variables — 1 her name, 2 the asker, 3 the question, 4 the record link — and
 * the same text rendered from the locale file, which is what the outbox shows (README: the bodies).
 */
export async function composePromptWhatsApp(
  config: Pick<Config, "APP_NAME" | "APP_URL">,
  input: PromptMessageInput & { to: string },
): Promise<OutgoingWhatsApp> {
  const t = await getServerT(input.language, { config }, "whatsapp");
  // Names on one line: a line break in a text reads as the message's own, and templates refuse it.
  const values = { name: oneLine(input.storytellerName), asker: oneLine(input.askerName), prompt: input.promptText };
  return {
    to: input.to,
    text: t("question", { ...values, recordUrl: input.recordUrl }),
    template: {
      language: input.language,
      variables: JSON.stringify({ 1: values.name, 2: values.asker, 3: values.prompt, 4: input.recordUrl }),
    },
  };
}

export async function composeConsentRequest(
  config: Pick<Config, "APP_NAME" | "APP_URL">,
  input: { language: Language; askerName: string; frequency: Frequency },
) {
  const t = await getServerT(input.language, { config }, "delivery");
  return t("consent.request", {
    asker: oneLine(input.askerName),
    frequency: t(`consent.frequency.${input.frequency}`),
  });
}
