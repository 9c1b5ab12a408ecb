import { Authenticator } from "remix-auth";
import { OAuth2Strategy } from "remix-auth-oauth2";
import { z } from "zod";
import { servesHttps } from "~/config.server";
import type { AppContext } from "~/context.server";
import { oneLine } from "~/utils/validation";
import { failWith, finishSignIn } from "./sign-in.server";

const STRATEGY = "google";

export const googleEnabled = (context: Pick<AppContext, "config">) =>
  Boolean(context.config.GOOGLE_CLIENT_ID && context.config.GOOGLE_CLIENT_SECRET);

const GOOGLE = {
  authorization: "https://accounts.google.com/o/oauth2/v2/auth",
  token: "https://oauth2.googleapis.com/token",
  userInfo: "https://www.googleapis.com/oauth2/v3/userinfo",
};

// Only tests point these elsewhere (a local server speaking Google's OAuth endpoints).
function endpoints(config: AppContext["config"]) {
  if (!config.GOOGLE_API_URL) return GOOGLE;
  const base = config.GOOGLE_API_URL.replace(/\/+$/, "");
  return { authorization: `${base}/o/oauth2/v2/auth`, token: `${base}/token`, userInfo: `${base}/oauth2/v3/userinfo` };
}

const googleProfile = z.object({
  sub: z.string().min(1),
  email: z.string().optional(),
  // Anything but a real `true` counts as unverified.
  email_verified: z.unknown().transform((value) => value === true),
  // Names become subjects and texts: on one line, whatever Google holds.
  given_name: z.string().transform(oneLine).optional(),
  family_name: z.string().transform(oneLine).optional(),
  name: z.string().transform(oneLine).optional(),
});
type GoogleProfile = {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
};

async function fetchProfile(url: string, accessToken: string) {
  const response = await fetch(url, {
    headers: { Authorization: `Bearer ${accessToken}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error("auth:errors.loginFailed");
  return googleProfile.parse(await response.json());
}

/**
 * The library keeps each attempt's state and PKCE verifier in a short cookie named from this prefix
 * plus a random suffix (several tabs may sign in at once).
 */
const stateCookiePrefix = (config: AppContext["config"]) =>
  servesHttps(config) ? "__Host-google_oauth" : "google_oauth";

/** Set-Cookie values that delete this request's OAuth state cookies, once they have served. */
function forgetOAuthState(context: Pick<AppContext, "config">, request: Request) {
  const prefix = stateCookiePrefix(context.config);
  const secure = servesHttps(context.config) ? "; Secure" : "";
  const headers = new Headers();
  for (const pair of (request.headers.get("Cookie") ?? "").split(";")) {
    const name = pair.split("=")[0].trim();
    if (name.startsWith(prefix))
      headers.append("Set-Cookie", `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);
  }
  return headers;
}

class GoogleStrategy extends OAuth2Strategy<string> {
  override name = STRATEGY;

  // Someone signed in to several Google accounts picks which one.
  protected override authorizationParams(params: URLSearchParams) {
    const withPrompt = new URLSearchParams(params);
    withPrompt.set("prompt", "select_account");
    return withPrompt;
  }
}

function googleAuthenticator(context: AppContext) {
  const urls = endpoints(context.config);
  const strategy = new GoogleStrategy(
    {
      clientId: context.config.GOOGLE_CLIENT_ID!,
      clientSecret: context.config.GOOGLE_CLIENT_SECRET!,
      authorizationEndpoint: urls.authorization,
      tokenEndpoint: urls.token,
      redirectURI: `${context.config.APP_URL}/auth/google/callback`,
      scopes: ["openid", "email", "profile"],
      cookie: {
        name: stateCookiePrefix(context.config),
        path: "/",
        httpOnly: true,
        sameSite: "Lax",
        maxAge: 10 * 60,
        ...(servesHttps(context.config) ? { secure: true as const } : {}),
      },
    },
    // PKCE (S256) and the state check are the library's; the profile comes from userinfo, as Google documents.
    async ({ tokens }) => signInWithGoogle(context, await fetchProfile(urls.userInfo, tokens.accessToken())),
  );
  return new Authenticator<string>().use(strategy, STRATEGY);
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
      .set((eb) => ({
        google_sub: profile.sub,
        email_verified_at: eb.fn.coalesce("email_verified_at", eb.val(new Date())),
      }))
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
  if (!googleEnabled(context)) return new Response(null, { status: 404 });
  let userId: string;
  try {
    // The strategy reads only the URL and cookies; a body-less copy spares it the POST's body.
    userId = await googleAuthenticator(context).authenticate(
      STRATEGY,
      new Request(request.url, { method: "GET", headers: request.headers }),
    );
  } catch (thrown) {
    // The way out to Google, carrying the state cookie.
    if (thrown instanceof Response) return thrown;
    // Google refused the code, the state did not match, or the account cannot be used.
    return failWith(context, request, "auth:errors.loginFailed", {
      page: "/auth/login",
      headers: forgetOAuthState(context, request),
    });
  }
  return finishSignIn(context, request, userId, forgetOAuthState(context, request));
}
