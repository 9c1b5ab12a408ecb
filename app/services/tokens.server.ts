import { createHmac } from "node:crypto";
import { errors, jwtVerify } from "jose";
import type { Config } from "~/config.server";
import { isUuid } from "~/utils/ids";
import { capabilityTokenKey } from "./keys.server";

/**
 * Capability links (record, unsubscribe, share): a JWT whose audience names the one thing it allows
 * and whose subject is an opaque row id. Callers check the row still exists on every use, so deleting
 * it revokes the link. The signing key is derived from SESSION_SECRET (keys.server.ts): changing that
 * secret voids every link already sent.
 */
export type CapabilityPurpose = "record" | "unsubscribe" | "share" | "register" | "group-invite" | "listen";

const ISSUER = "heirloom";

/** Unsubscribe links must keep working well past the 60 days the law asks for. */
// A register link (record page → "My Stories" without an account) only needs to outlive a visit.
const LIFETIME_DAYS: Record<CapabilityPurpose, number | undefined> = {
  record: undefined,
  unsubscribe: 400,
  share: undefined,
  register: 30,
  // A group invitation's own row holds its expiry (30 days, reset by Resend), so its page can say
  // "expired" instead of treating the link as unknown.
  "group-invite": undefined,
  // A book's QR codes are printed: they never expire; revoking the link row stops them (decision 023).
  listen: undefined,
};

/**
 * Signs an HS256 JWT exactly as jose's SignJWT would (same header, same claim order), with node's
 * HMAC directly: the scheduler signs two links per prompt, 100,000 prompts a minute, and jose's
 * WebCrypto round trip costs ten times as much (verification still goes through jose).
 */
export async function signCapability(
  config: Pick<Config, "SESSION_SECRET">,
  purpose: CapabilityPurpose,
  subject: string,
  now = new Date(),
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  const days = LIFETIME_DAYS[purpose];
  const claims: Record<string, string | number> = { iss: ISSUER, aud: purpose, sub: subject, iat };
  if (days) claims.exp = Math.floor((now.getTime() + days * 86_400_000) / 1000);
  return signClaims(config, claims);
}

function signClaims(config: Pick<Config, "SESSION_SECRET">, claims: Record<string, string | number>) {
  const signingInput = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  const signature = createHmac("sha256", capabilityTokenKey(config)).update(signingInput).digest("base64url");
  return `${signingInput}.${signature}`;
}

/** How long a phone playback link lives: Twilio fetches it the moment the caller presses 2. */
export const PHONE_PLAYBACK_MINUTES = 10;
const PHONE_PLAYBACK = "phone-playback";
const CALL_SID = /^CA[0-9a-f]{32}$/;

/**
 * A phone caller's own recording, played back to them ("press 2 to listen", decision 022): the
 * recording row's id and the call it belongs to, for ten minutes. Its audience is its own, so no
 * other capability token opens it and it opens nothing else.
 */
export function signPhonePlayback(
  config: Pick<Config, "SESSION_SECRET">,
  playback: { recordingId: string; callSid: string },
  now = new Date(),
): string {
  const iat = Math.floor(now.getTime() / 1000);
  return signClaims(config, {
    iss: ISSUER,
    aud: PHONE_PLAYBACK,
    sub: playback.recordingId,
    call: playback.callSid,
    iat,
    exp: iat + PHONE_PLAYBACK_MINUTES * 60,
  });
}

/** The recording and call a valid, unexpired playback token names, or null. */
export async function verifyPhonePlayback(
  config: Pick<Config, "SESSION_SECRET">,
  token: string,
  now = new Date(),
): Promise<{ recordingId: string; callSid: string } | null> {
  if (token.length > 1000) return null;
  try {
    const { payload } = await jwtVerify(token, capabilityTokenKey(config), {
      issuer: ISSUER,
      audience: PHONE_PLAYBACK,
      algorithms: ["HS256"],
      currentDate: now,
      requiredClaims: ["exp", "sub"],
    });
    const call = payload.call;
    return typeof payload.sub === "string" && isUuid(payload.sub) && typeof call === "string" && CALL_SID.test(call)
      ? { recordingId: payload.sub, callSid: call }
      : null;
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}

const HEADER = Buffer.from(JSON.stringify({ alg: "HS256" })).toString("base64url");

/** The subject (a row id) of a valid token for this purpose, or null (tampered, expired, another purpose, not a JWT). */
export async function verifyCapability(
  config: Pick<Config, "SESSION_SECRET">,
  purpose: CapabilityPurpose,
  token: string,
  now = new Date(),
): Promise<string | null> {
  if (token.length > 1000) return null;
  try {
    const { payload } = await jwtVerify(token, capabilityTokenKey(config), {
      issuer: ISSUER,
      audience: purpose,
      algorithms: ["HS256"],
      currentDate: now,
    });
    return typeof payload.sub === "string" && isUuid(payload.sub) ? payload.sub : null;
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
