import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { AppContext } from "~/context.server";
import type { RateLimitPolicy } from "~/utils/rate-limit.server";
import { readForm } from "~/utils/request-body.server";
import { loginSchema } from "./forms";
import { startSignIn } from "./sign-in.server";

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

/** The action behind "Log in" and "Can't sign in?": validate, count against the limits, send a code. */
export async function requestSignInCode(context: AppContext, request: Request) {
  const submission = parseWithZod(await readForm(request), { schema: loginSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const limited = await checkSignInLimits(context, submission.value.email, "signInPerIp");
  if (limited)
    return data(
      { result: submission.reply({ formErrors: ["errors.rateLimited"] }) },
      { status: 429, headers: limited },
    );
  return startSignIn(context, request, {
    email: submission.value.email,
    purpose: "login",
    redirectTo: submission.value.redirectTo,
  });
}
