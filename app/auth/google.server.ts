import { Authenticator } from "remix-auth";
import { GoogleStrategy } from "remix-auth-google";
import type { AppContext } from "~/context.server";
import { authFlowStorage } from "./auth-flow.server";
import { ERROR_KEY, failWith, finishSignIn, SIGNED_IN_MARKER, USER_KEY } from "./sign-in.server";

const STRATEGY = "google";

export const googleEnabled = (context: Pick<AppContext, "config">) => Boolean(context.config.GOOGLE_CLIENT_ID && context.config.GOOGLE_CLIENT_SECRET);

type GoogleProfile = { sub: string; email?: string; email_verified?: boolean; given_name?: string; family_name?: string; name?: string };

function googleAuthenticator(context: AppContext) {
  const storage = authFlowStorage(context);
  const strategy = new GoogleStrategy(
    {
      clientID: context.config.GOOGLE_CLIENT_ID!,
      clientSecret: context.config.GOOGLE_CLIENT_SECRET!,
      callbackURL: `${context.config.APP_URL}/auth/google/callback`,
      prompt: "select_account",
    },
    async ({ profile }) => signInWithGoogle(context, profile._json as unknown as GoogleProfile),
  );
  // Only tests point these elsewhere (a local server speaking Google's OAuth endpoints).
  if (context.config.GOOGLE_API_URL) {
    const base = context.config.GOOGLE_API_URL.replace(/\/+$/, "");
    Object.assign(strategy, { authorizationURL: `${base}/o/oauth2/v2/auth`, tokenURL: `${base}/token`, userInfoURL: `${base}/oauth2/v3/userinfo` });
  }
  const authenticator = new Authenticator<string>(storage, { sessionKey: USER_KEY, sessionErrorKey: ERROR_KEY });
  authenticator.use(strategy, STRATEGY);
  return { authenticator, storage };
}

/**
 * Users are keyed by Google's `sub`. An existing account with the same email is linked only when
 * Google says the address is verified; otherwise a first Google sign-in creates the account.
 */
export async function signInWithGoogle(context: Pick<AppContext, "db">, profile: GoogleProfile): Promise<string> {
  const { db } = context;
  if (!profile.sub) throw new Error("auth:errors.loginFailed");
  const known = await db.selectFrom("users").select("id").where("google_sub", "=", profile.sub).executeTakeFirst();
  if (known) return known.id;
  if (!profile.email) throw new Error("auth:errors.loginFailed");
  const sameEmail = await db
    .selectFrom("users")
    .select(["id", "google_sub"])
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", profile.email!.toLowerCase()))
    .executeTakeFirst();
  if (sameEmail) {
    if (profile.email_verified !== true || sameEmail.google_sub) throw new Error("auth:errors.loginFailed");
    await db
      .updateTable("users")
      .set((eb) => ({ google_sub: profile.sub, email_verified_at: eb.fn.coalesce("email_verified_at", eb.val(new Date())) }))
      .where("id", "=", sameEmail.id)
      .execute();
    return sameEmail.id;
  }
  const firstName = (profile.given_name || profile.name || profile.email.split("@")[0]).slice(0, 50);
  const nickname = firstName.length >= 2 ? firstName.slice(0, 30) : `${firstName}${firstName}`.padEnd(2, "x");
  const created = await db
    .insertInto("users")
    .values({
      email: profile.email,
      first_name: firstName,
      last_name: (profile.family_name ?? "").slice(0, 50),
      nickname,
      google_sub: profile.sub,
      email_verified_at: profile.email_verified ? new Date() : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return created.id;
}

/** Sends the browser to Google (POST /auth/google) or finishes the sign-in (GET /auth/google/callback). */
export async function authenticateWithGoogle(context: AppContext, request: Request): Promise<Response> {
  if (!googleEnabled(context)) throw new Response(null, { status: 404 });
  const { authenticator, storage } = googleAuthenticator(context);
  try {
    await authenticator.authenticate(STRATEGY, new Request(request.url, { method: "GET", headers: request.headers }), {
      successRedirect: SIGNED_IN_MARKER,
      failureRedirect: "/auth/login?google=failed",
    });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    if (thrown.headers.get("Location") === SIGNED_IN_MARKER) return finishSignIn(context, request, thrown, storage);
    if (thrown.headers.get("Location")?.startsWith("/auth/login")) return failWith(context, request, "auth:errors.loginFailed", "/auth/login");
    return thrown;
  }
  throw new Error("remix-auth-google returned without redirecting");
}
