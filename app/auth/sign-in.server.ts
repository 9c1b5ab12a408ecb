import { createHash } from "node:crypto";
import { createCookie, redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { TOTPStrategy } from "remix-auth-totp";
import type { AppContext } from "~/context.server";
import { getServerT, i18nServer, languageCookie } from "~/i18n/i18next.server";
import { queueEmail } from "~/services/outbox.server";
import { authFlowCookie, authFlowStorage, FLOW_EMAIL_KEY, flowIdForEmail, SIGN_IN_VALIDITY_SECONDS } from "./auth-flow.server";
import { createUserSession, safeRedirectPath } from "./session.server";

const STRATEGY = "totp";
export const USER_KEY = "userId";
export const ERROR_KEY = "auth:error";
export const MAGIC_LINK_PATH = "/auth/magic-link";
/** Where a strategy "redirects" on success; finishSignIn turns that into a real session. */
export const SIGNED_IN_MARKER = "/auth/verify?signed-in=1";

/** Why a sign-in email is sent; decides its wording. */
export type SignInPurpose = "login" | "register" | "already-registered";

// The code is encrypted with a key derived from the session secret (remix-auth-totp wants 64 hex).
const totpKey = (secret: string) => createHash("sha256").update(`remix-auth-totp:${secret}`).digest("hex");

/** Remembers the page a visitor wanted before signing in, for one use. */
function redirectCookie(context: Pick<AppContext, "config">) {
  return createCookie("auth_redirect", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: context.config.APP_URL.startsWith("https:"),
    secrets: [context.config.SESSION_SECRET],
    maxAge: SIGN_IN_VALIDITY_SECONDS,
  });
}

export function signInAuthenticator(context: AppContext) {
  const storage = authFlowStorage(context);
  const authenticator = new Authenticator<string>(storage, { sessionKey: USER_KEY, sessionErrorKey: ERROR_KEY });
  authenticator.use(
    new TOTPStrategy(
      {
        secret: totpKey(context.config.SESSION_SECRET),
        maxAge: SIGN_IN_VALIDITY_SECONDS,
        magicLinkPath: MAGIC_LINK_PATH,
        totpGeneration: { period: SIGN_IN_VALIDITY_SECONDS, digits: 6, charSet: "0123456789", maxAttempts: 5 },
        // Messages are translation keys, shown in the visitor's language on /auth/verify.
        customErrors: {
          requiredEmail: "validation.emailRequired",
          invalidEmail: "validation.emailInvalid",
          invalidTotp: "auth:errors.invalidCode",
          expiredTotp: "auth:errors.expiredCode",
          missingSessionEmail: "auth:errors.expiredCode",
        },
        sendTOTP: async ({ email, code, request, formData }) => {
          const purpose = (formData.get("purpose") as SignInPurpose | null) ?? "login";
          await queueSignInEmail(context, request, { email, code, purpose });
        },
      },
      async ({ email }) => {
        const user = await context.db
          .updateTable("users")
          .set((eb) => ({ email_verified_at: eb.fn.coalesce("email_verified_at", eb.val(new Date())) }))
          .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.trim().toLowerCase()))
          .returning("id")
          .executeTakeFirst();
        if (!user) throw new Error("auth:errors.loginFailed");
        return user.id;
      },
    ),
    STRATEGY,
  );
  return { authenticator, storage };
}

/**
 * Sends (through the outbox job) a code and link to an account's address, or, when no account uses
 * the address, a note saying so. The page shown is the same either way.
 */
async function queueSignInEmail(context: AppContext, request: Request, input: { email: string; code: string; purpose: SignInPurpose }) {
  const user = await context.db
    .selectFrom("users")
    .select(["first_name", "language"])
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", input.email.trim().toLowerCase()))
    .executeTakeFirst();
  const t = await getServerT(user?.language ?? (await i18nServer.getLocale(request)), context, "emails");
  const link = `${context.config.APP_URL}${MAGIC_LINK_PATH}?code=${encodeURIComponent(input.code)}`;
  if (!user) {
    const registerUrl = `${context.config.APP_URL}/auth/register`;
    await queueEmail(context.db, {
      to: input.email,
      subject: t("noAccount.subject"),
      text: t("noAccount.text", { registerUrl }),
    });
    return;
  }
  const intro = t(`signIn.intro.${input.purpose}`, { name: user.first_name });
  await queueEmail(context.db, {
    to: input.email,
    subject: t("signIn.subject", { code: input.code }),
    text: t("signIn.text", { intro, code: input.code, link, minutes: SIGN_IN_VALIDITY_SECONDS / 60 }),
  });
}

/**
 * remix-auth copies the request, body included, but the action has already read the form (it
 * passes the fields through `context.formData`), so the strategy gets a body-less copy.
 */
function withoutBody(request: Request, headers: Headers = request.headers) {
  return new Request(request.url, { method: request.method, headers });
}

/** Starts a sign-in: sends the code and link, remembers where to go after, and shows /auth/verify. */
export async function startSignIn(context: AppContext, request: Request, fields: { email: string; purpose: SignInPurpose; redirectTo?: string | null }) {
  const { authenticator } = signInAuthenticator(context);
  const formData = new FormData();
  formData.set("email", fields.email);
  formData.set("purpose", fields.purpose);
  try {
    await authenticator.authenticate(STRATEGY, withoutBody(request), {
      successRedirect: "/auth/verify",
      failureRedirect: "/auth/verify",
      context: { ...context, formData },
    });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    const redirectTo = fields.redirectTo ? safeRedirectPath(fields.redirectTo) : null;
    if (redirectTo) thrown.headers.append("Set-Cookie", await redirectCookie(context).serialize(redirectTo));
    return thrown;
  }
  throw new Error("remix-auth-totp returned without redirecting");
}

/**
 * Checks a typed code (POST) or an emailed link (GET). A browser without a sign-in in progress (the
 * code typed on another device) names the email and joins that email's newest sign-in.
 */
export async function verifySignIn(context: AppContext, request: Request, formData?: FormData): Promise<Response> {
  const { authenticator, storage } = signInAuthenticator(context);
  let verifyRequest = withoutBody(request);
  const typedEmail = formData?.get("email");
  if (formData && typeof typedEmail === "string" && typedEmail.includes("@")) {
    const flowId = await flowIdForEmail(context, typedEmail);
    if (!flowId) return failWith(context, request, "auth:errors.expiredCode");
    const headers = new Headers(request.headers);
    headers.set("Cookie", (await authFlowCookie(context).serialize(flowId)).split(";")[0]);
    verifyRequest = withoutBody(request, headers);
    formData.delete("email"); // the strategy would read an email as "send a new code"
  }
  try {
    await authenticator.authenticate(STRATEGY, verifyRequest, {
      successRedirect: SIGNED_IN_MARKER,
      failureRedirect: "/auth/verify",
      context: { ...context, formData },
    });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    if (thrown.headers.get("Location") !== SIGNED_IN_MARKER) return thrown;
    return finishSignIn(context, request, thrown, storage);
  }
  throw new Error("remix-auth-totp returned without redirecting");
}

/** Swaps the finished sign-in for a real session (a new id) and goes where the visitor wanted, once. */
export async function finishSignIn(context: AppContext, request: Request, success: Response, storage: ReturnType<typeof authFlowStorage>) {
  const flowCookie = success.headers.getSetCookie().find((cookie) => cookie.startsWith(`${authFlowCookie(context).name}=`)) ?? "";
  const flow = await storage.getSession(flowCookie.split(";")[0]);
  const userId = flow.get(USER_KEY);
  if (typeof userId !== "string") return failWith(context, request, "auth:errors.loginFailed");
  await storage.destroySession(flow);
  const wanted = await redirectCookie(context).parse(request.headers.get("Cookie"));
  const headers = new Headers();
  headers.append("Set-Cookie", await createUserSession(context, context.db, userId, request.headers.get("User-Agent")));
  // The account's language follows the person to every device they sign in on.
  const account = await context.db.selectFrom("users").select("language").where("id", "=", userId).executeTakeFirst();
  if (account) headers.append("Set-Cookie", await languageCookie.serialize(account.language));
  headers.append("Set-Cookie", await authFlowCookie(context).serialize("", { maxAge: 0 }));
  headers.append("Set-Cookie", await redirectCookie(context).serialize("", { maxAge: 0 }));
  return redirect(safeRedirectPath(wanted, "/dashboard"), { headers });
}

/** Back to a sign-in page (the code form by default) with `message` (a translation key) shown once. */
export async function failWith(context: AppContext, request: Request, message: string, page = "/auth/verify") {
  const storage = authFlowStorage(context);
  const session = await storage.getSession(request.headers.get("Cookie"));
  session.flash(ERROR_KEY, { message });
  return redirect(page, { headers: { "Set-Cookie": await storage.commitSession(session) } });
}

/** For /auth/verify: the email a code went to (if this browser asked for one) and any error to show. */
export async function readSignInState(context: AppContext, request: Request) {
  const storage = authFlowStorage(context);
  const session = await storage.getSession(request.headers.get("Cookie"));
  const email = session.get(FLOW_EMAIL_KEY);
  const error = session.get(ERROR_KEY) as { message?: string } | undefined;
  const setCookie = error ? await storage.commitSession(session) : null;
  return { email: typeof email === "string" ? email : null, error: error?.message ?? null, setCookie };
}
