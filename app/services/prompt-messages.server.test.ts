import { describe, expect, it } from "vitest";
import { getServerT } from "~/i18n/i18next.server";
import { oneLine } from "~/utils/validation";
import type { Language } from "../../db/schema";
import { composePromptEmail, type PromptMessageInput } from "./prompt-messages.server";

const config = { APP_NAME: "Heirloom", APP_URL: "https://heirloom.example", MAIL_POSTAL_ADDRESS: "1 Main St & Co <x>" };

/**
 * The composition as it was, straight through i18next per message: the templates must match it.
 * Names go in on one line, as the message builders fold them.
 */
async function reference(input: PromptMessageInput & { to: string; unsubscribeUrl: string }) {
  const t = await getServerT(input.language, { config }, "delivery");
  const vars = { name: oneLine(input.storytellerName), asker: oneLine(input.askerName) };
  const e = (text: string) =>
    text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
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
<p style="font-size:13px;color:#6b5b4b;margin:16px 0 0">${e(t("promptEmail.linkFallback"))}<br><a href="${e(input.recordUrl)}" style="color:#8a4b14;word-break:break-all">${e(input.recordUrl)}</a></p>
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
  return { subject: t("promptEmail.subject", vars), text, html };
}

describe("prompt emails from templates", () => {
  const awkward = [
    { storytellerName: "Nana", askerName: "Ann", promptText: "What was school like?", photoUrl: null },
    {
      storytellerName: `O'Brien <b>&amp;</b> "Co" {{asker}} \u0001name\u0001`,
      askerName: `Élodie & <script>alert(1)</script> $&`,
      promptText: `Tell me about "home" & <the> sea {{name}} $1 $$`,
      photoUrl: "https://heirloom.example/record/t/photo?a=1&b=2",
    },
  ];
  for (const language of ["en", "hi"] as Language[])
    for (const [i, names] of awkward.entries())
      it(`matches i18next's own output (${language}, case ${i + 1})`, async () => {
        const input = {
          ...names,
          language,
          to: "nana@example.com",
          recordUrl: "https://heirloom.example/record/abc?lng=" + language + "&x=<y>",
          unsubscribeUrl: "https://heirloom.example/unsubscribe/def?lng=" + language,
        };
        const email = await composePromptEmail(config, input);
        const expected = await reference(input);
        expect(email.subject).toBe(expected.subject);
        expect(email.text).toBe(expected.text);
        expect(email.html).toBe(expected.html);
        expect(email.to).toBe("nana@example.com");
        expect(email.headers?.["List-Unsubscribe"]).toBe(`<${input.unsubscribeUrl}>`);
      });
});
