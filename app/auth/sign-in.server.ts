import { createCookie, redirect } from "react-router";
import { Authenticator } from "remix-auth";
import { Strategy } from "remix-auth/strategy";
import { servesHttps } from "~/config.server";
import type { AppContext } from "~/context.server";
import { getServerT, i18nServer, serializeLanguage } from "~/i18n/i18next.server";
import { cookieSecret } from "~/services/keys.server";
import { queueEmail } from "~/services/outbox.server";
import { type DbOrTx, inTransaction } from "../../db/client";
import {
  createFlow,
  type FlowKey,
  type FlowState,
  flowStateCookie,
  readFlowState,
  redeemSignInCode,
  SIGN_IN_VALIDITY_SECONDS,
} from "./auth-flow.server";
import { createUserSession, safeRedirectPath } from "./session.server";

const STRATEGY = "email-code";
const MAGIC_LINK_PATH = "/auth/magic-link";

/** Why a sign-in email is sent; decides its wording. */
export type SignInPurpose = "login" | "register" | "already-registered";

/** A sign-in that did not work. The message is a translation key, shown on the page it returns to. */
class SignInFailed extends Error {
  /** An address typed with the code that has a sign-in: the page keeps naming it, as for the browser that asked. */
  readonly typedEmail?: string;
  constructor(message: string, typedEmail?: string) {
    super(message);
    this.typedEmail = typedEmail;
  }
}

/** Remembers the page a visitor wanted before signing in, for one use. */
function redirectCookie(context: Pick<AppContext, "config">) {
  return createCookie("auth_redirect", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: servesHttps(context.config),
    secrets: [cookieSecret(context.config)],
    maxAge: SIGN_IN_VALIDITY_SECONDS,
  });
}

type VerifyParams = { email: string };

/**
 * Emailed codes as a remix-auth 4 strategy: a typed code (POST `code`, plus `email` on another device)
 * or the emailed link (GET `?code=`, only in the browser that asked, so a mail scanner opening it
 * touches nothing) is checked against the auth_flows row; `verify` turns the address into an account.
 */
class EmailCodeStrategy extends Strategy<string, VerifyParams> {
  name = STRATEGY;
  private readonly context: AppContext;

  constructor(context: AppContext, verify: Strategy.VerifyFunction<string, VerifyParams>) {
    super(verify);
    this.context = context;
  }

  async authenticate(request: Request): Promise<string> {
    const state = await readFlowState(this.context, request);
    const isLink = request.method === "GET";
    const fields = isLink ? new URL(request.url).searchParams : await request.formData();
    const code = fields.get("code");
    const typed = isLink ? null : fields.get("email");
    const typedEmail = typeof typed === "string" && typed.includes("@") ? typed.trim() : undefined;
    if (typeof code !== "string" || !/^\d{6}$/.test(code.trim())) throw new SignInFailed("auth:errors.invalidCode");

    // A typed address wins; then this browser's own sign-in; then (typed codes only) the address it typed before.
    const key: FlowKey | null = typedEmail
      ? { email: typedEmail }
      : state.id
        ? { id: state.id }
        : state.email && !isLink
          ? { email: state.email }
          : null;
    if (!key) throw new SignInFailed("auth:errors.expiredCode");
    const { outcome, email } = await redeemSignInCode(this.context, key, code);
    if (outcome !== "ok" || !email) {
      throw new SignInFailed(
        outcome === "wrong" ? "auth:errors.invalidCode" : "auth:errors.expiredCode",
        email ? typedEmail : undefined,
      );
    }
    return this.verify({ email });
  }
}

function signInAuthenticator(context: AppContext) {
  const strategy = new EmailCodeStrategy(context, async ({ email }) => {
    const user = await context.db
      .updateTable("users")
      .set((eb) => ({ email_verified_at: eb.fn.coalesce("email_verified_at", eb.val(new Date())) }))
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.trim().toLowerCase()))
      .returning("id")
      .executeTakeFirst();
    if (!user) throw new SignInFailed("auth:errors.loginFailed");
    return user.id;
  });
  return new Authenticator<string>().use(strategy, STRATEGY);
}

/**
 * Queues (outbox row + job, in the caller's transaction) a code and link to an account's address,
 * or, when no account uses the address, a note saying so. The page shown is the same either way.
 */
async function queueSignInEmail(
  context: AppContext,
  db: DbOrTx,
  request: Request,
  input: { email: string; code: string; purpose: SignInPurpose },
) {
  const user = await db
    .selectFrom("users")
    .select(["first_name", "language"])
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", input.email.trim().toLowerCase()))
    .executeTakeFirst();
  const t = await getServerT(user?.language ?? (await i18nServer.getLocale(request)), context, "emails");
  const link = `${context.config.APP_URL}${MAGIC_LINK_PATH}?code=${encodeURIComponent(input.code)}`;
  if (!user) {
    const registerUrl = `${context.config.APP_URL}/auth/register`;
    await queueEmail(db, {
      to: input.email,
      subject: t("noAccount.subject"),
      text: t("noAccount.text", { registerUrl }),
    });
    return;
  }
  const intro = t(`signIn.intro.${input.purpose}`, { name: user.first_name });
  await queueEmail(db, {
    to: input.email,
    subject: t("signIn.subject", { code: input.code }),
    text: t("signIn.text", { intro, code: input.code, link, minutes: SIGN_IN_VALIDITY_SECONDS / 60 }),
  });
}

/** Starts a sign-in: sends the code and link, remembers where to go after, and shows /auth/verify. */
export async function startSignIn(
  context: AppContext,
  request: Request,
  fields: { email: string; purpose: SignInPurpose; redirectTo?: string | null },
) {
  // An unknown address gets a sign-in too (its code is never sent), so both answers look the same.
  const id = await inTransaction(context.db, async (tx) => {
    const flow = await createFlow(context, tx, fields.email);
    await queueSignInEmail(context, tx, request, { email: fields.email, code: flow.code, purpose: fields.purpose });
    return flow.id;
  });
  const headers = new Headers();
  headers.append("Set-Cookie", await flowStateCookie(context, { id, email: fields.email }));
  const redirectTo = fields.redirectTo ? safeRedirectPath(fields.redirectTo) : null;
  if (redirectTo) headers.append("Set-Cookie", await redirectCookie(context).serialize(redirectTo));
  return redirect("/auth/verify", { headers });
}

/**
 * The action has read the body already (to validate it); remix-auth copies the request it is given,
 * so it gets a fresh one carrying the same fields.
 */
function withFields(request: Request, formData: FormData) {
  const body = new URLSearchParams();
  for (const [name, value] of formData) if (typeof value === "string") body.append(name, value);
  const headers = new Headers(request.headers);
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  headers.delete("Content-Length");
  return new Request(request.url, { method: "POST", headers, body });
}

/**
 * Checks a typed code (POST) or an emailed link (GET). A browser without a sign-in in progress (the
 * code typed on another device) names the email and joins that email's sign-in.
 */
export async function verifySignIn(context: AppContext, request: Request, formData?: FormData): Promise<Response> {
  let userId: string;
  try {
    userId = await signInAuthenticator(context).authenticate(
      STRATEGY,
      formData ? withFields(request, formData) : request,
    );
  } catch (error) {
    if (!(error instanceof SignInFailed)) throw error;
    return failWith(context, request, error.message, {
      state: error.typedEmail ? { email: error.typedEmail } : undefined,
    });
  }
  return finishSignIn(context, request, userId);
}

/** Starts a real session (a new id), forgets the sign-in, and goes where the visitor wanted, once. */
export async function finishSignIn(context: AppContext, request: Request, userId: string, headers = new Headers()) {
  const wanted = await redirectCookie(context).parse(request.headers.get("Cookie"));
  headers.append("Set-Cookie", await createUserSession(context, context.db, userId, request.headers.get("User-Agent")));
  // The account's language follows the person to every device they sign in on.
  const account = await context.db.selectFrom("users").select("language").where("id", "=", userId).executeTakeFirst();
  if (account) headers.append("Set-Cookie", await serializeLanguage(account.language, context.config));
  headers.append("Set-Cookie", await flowStateCookie(context, {}));
  headers.append("Set-Cookie", await redirectCookie(context).serialize("", { maxAge: 0 }));
  return redirect(safeRedirectPath(wanted, "/dashboard"), { headers });
}

/**
 * Back to a sign-in page (the code form by default) with `message` (a translation key) shown once.
 * `state` replaces what the browser's auth_flow cookie says (default: keep it).
 */
export async function failWith(
  context: AppContext,
  request: Request,
  message: string,
  options: { page?: string; state?: FlowState; headers?: Headers } = {},
) {
  const state = options.state ?? (await readFlowState(context, request));
  const headers = options.headers ?? new Headers();
  headers.append("Set-Cookie", await flowStateCookie(context, { ...state, error: message }));
  return redirect(options.page ?? "/auth/verify", { headers });
}

/** For /auth/verify and /auth/login: the email a code went to (if this browser asked for one) and any error to show. */
export async function readSignInState(context: AppContext, request: Request) {
  const state = await readFlowState(context, request);
  const setCookie = state.error ? await flowStateCookie(context, { ...state, error: undefined }) : null;
  return { email: state.email ?? null, error: state.error ?? null, setCookie };
}
