import { createHash, timingSafeEqual } from "node:crypto";
import twilio from "twilio";
import type { Config } from "~/config.server";
import { MAX_WEBHOOK_BYTES, readTextAtMost } from "~/utils/request-body.server";
import { withoutControlCharacters } from "~/utils/validation";

const refuse = (status: number) => new Response(null, { status });

/**
 * A Twilio webhook's form fields, once its X-Twilio-Signature checks out against the URL Twilio was
 * given (built from APP_URL, never from the Host header), control characters taken out. Forged or
 * unsigned → 403.
 */
export async function verifiedTwilioParams(request: Request, config: Config): Promise<Record<string, string>> {
  if (config.smsUsesOutbox || !config.TWILIO_AUTH_TOKEN) throw refuse(404);
  // Read before the signature can be checked, so only a webhook-sized body is read at all.
  const body = await readTextAtMost(request, MAX_WEBHOOK_BYTES);
  if (body === null) throw refuse(413);
  const params: Record<string, string> = Object.fromEntries(new URLSearchParams(body));
  const signature = request.headers.get("x-twilio-signature");
  const { pathname, search } = new URL(request.url);
  if (
    !signature ||
    !twilio.validateRequest(config.TWILIO_AUTH_TOKEN, signature, `${config.APP_URL}${pathname}${search}`, params)
  ) {
    throw refuse(403);
  }
  // Signed as sent; what we keep or look up has no NUL (PostgreSQL refuses it in text).
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, withoutControlCharacters(value)]));
}

/** Postmark sends the webhook's basic-auth credentials we gave it; the password is the shared secret. */
export function verifyPostmarkWebhook(request: Request, config: Config) {
  if (!config.POSTMARK_WEBHOOK_SECRET) throw refuse(404);
  const header = request.headers.get("authorization") ?? "";
  const decoded = header.startsWith("Basic ") ? Buffer.from(header.slice(6), "base64").toString("utf8") : "";
  const password = decoded.slice(decoded.indexOf(":") + 1);
  const digest = (text: string) => createHash("sha256").update(text).digest();
  if (!decoded.includes(":") || !timingSafeEqual(digest(password), digest(config.POSTMARK_WEBHOOK_SECRET)))
    throw refuse(401);
}

export function twiml(message: string | null): Response {
  const escaped = message?.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!);
  const body = `<?xml version="1.0" encoding="UTF-8"?><Response>${escaped ? `<Message>${escaped}</Message>` : ""}</Response>`;
  return new Response(body, { headers: { "Content-Type": "text/xml; charset=utf-8" } });
}
