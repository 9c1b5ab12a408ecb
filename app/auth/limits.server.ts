import type { AppContext } from "~/context.server";
import type { RateLimitPolicy } from "~/utils/rate-limit.server";

/**
 * Sign-in emails are limited per address (so nobody's inbox can be flooded) and per client.
 * Returns Retry-After headers when refused, else null.
 */
export async function checkSignInLimits(context: AppContext, email: string, perIp: RateLimitPolicy) {
  for (const [policy, key] of [
    [perIp, context.clientIp],
    ["signInPerEmail", email.trim().toLowerCase()],
  ] as const) {
    const result = await context.rateLimit(policy, key);
    if (!result.allowed) return { "Retry-After": String(result.retryAfterSeconds) };
  }
  return null;
}
