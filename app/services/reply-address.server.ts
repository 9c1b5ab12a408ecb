import { createHmac, timingSafeEqual } from "node:crypto";
import type { Config } from "~/config.server";
import { replyAddressKey } from "./keys.server";

// A question email's Reply-To: `reply+<token>@INBOUND_EMAIL_DOMAIN`, where the token names the
// question (its opaque row id) and a MAC over it, both in lowercase hex so that a mail server that
// folds the address's case still delivers it, and short enough for an address's 64-character local
// part. Like a record link, the caller checks the question still exists (deleting it revokes the
// address) and changing SESSION_SECRET voids every address sent (decision 078).

const MAC_HEX = 20;
const TOKEN = /^([0-9a-f]{32})([0-9a-f]{20})$/;

const mac = (config: Pick<Config, "SESSION_SECRET">, id: string) =>
  createHmac("sha256", replyAddressKey(config)).update(`reply:${id}`).digest("hex").slice(0, MAC_HEX);

export function replyToken(config: Pick<Config, "SESSION_SECRET">, promptId: string): string {
  const id = promptId.replaceAll("-", "").toLowerCase();
  return `${id}${mac(config, id)}`;
}

/** The prompt id a token names, or null (tampered, malformed, another install's). */
export function promptIdOfReplyToken(config: Pick<Config, "SESSION_SECRET">, token: string): string | null {
  const match = TOKEN.exec(token.trim().toLowerCase());
  if (!match) return null;
  const [, id, given] = match;
  if (!timingSafeEqual(Buffer.from(given), Buffer.from(mac(config, id)))) return null;
  return `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
}

/** The Reply-To of a question email, or null when this install takes no inbound mail. */
export function replyAddress(config: Pick<Config, "SESSION_SECRET" | "inboundEmailDomain">, promptId: string) {
  return config.inboundEmailDomain ? `reply+${replyToken(config, promptId)}@${config.inboundEmailDomain}` : null;
}

/** The token of a `reply+<token>@…` address (Postmark gives it as MailboxHash too), or null. */
export function tokenOfReplyAddress(address: string): string | null {
  const match = /reply\+([0-9a-z]+)@/i.exec(address);
  return match ? match[1] : null;
}
