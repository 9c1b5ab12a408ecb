import { createHmac, hkdfSync } from "node:crypto";
import type { Config } from "~/config.server";

/**
 * Every key Heirloom uses comes from SESSION_SECRET, here and nowhere else: one HKDF-SHA256 expansion
 * per purpose, each with its own label, so a key for one purpose says nothing about another.
 * Changing SESSION_SECRET changes them all (signed cookies, emailed codes, capability links).
 */
type Secret = Pick<Config, "SESSION_SECRET">;
type Purpose = "cookie" | "emailed-code" | "answer-code" | "answer-code-lookup" | "reply-address";

const derived = new Map<string, Buffer>();

function derive(config: Secret, purpose: Purpose): Buffer {
  const cacheKey = `${purpose}\u0000${config.SESSION_SECRET}`;
  let key = derived.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", config.SESSION_SECRET, "heirloom", purpose, 32));
    derived.set(cacheKey, key);
  }
  return key;
}

/** The secret cookies are signed with (createCookie's `secrets`). */
export function cookieSecret(config: Secret): string {
  return derive(config, "cookie").toString("base64url");
}

/** The HMAC key emailed codes (sign-in, email change) are hashed with before they are stored. */
export function emailedCodeKey(config: Secret): Buffer {
  return derive(config, "emailed-code");
}

/** The key a prompt's answer code is derived with (so it can be shown again without storing it). */
export function answerCodeKey(config: Secret): Buffer {
  return derive(config, "answer-code");
}

/** The HMAC key answer codes are looked up by (the only form of a code at rest). */
export function answerCodeLookupKey(config: Secret): Buffer {
  return derive(config, "answer-code-lookup");
}

/** The key a question email's reply address is signed with (app/services/reply-address.server.ts). */
export function replyAddressKey(config: Secret): Buffer {
  return derive(config, "reply-address");
}

const capabilityKeys = new Map<string, Uint8Array>();

/**
 * The key capability links (record, unsubscribe, share, register) are signed with. Its derivation
 * (HMAC with a fixed label) predates this module and stays as it was: record links never expire and
 * unsubscribe links live 400 days, so a new derivation would void links already in people's inboxes
 * (decision 009).
 */
export function capabilityTokenKey(config: Secret): Uint8Array {
  let key = capabilityKeys.get(config.SESSION_SECRET);
  if (!key) {
    key = new Uint8Array(createHmac("sha256", config.SESSION_SECRET).update("heirloom capability tokens v1").digest());
    capabilityKeys.set(config.SESSION_SECRET, key);
  }
  return key;
}
