import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as apiUser } from "~/routes/api.user";
import { action as startGoogle } from "~/routes/auth.google";
import { loader as googleCallback } from "~/routes/auth.google.callback";
import { makeTestContext, routeArgs } from "../../tests/context";
import { CookieJar } from "../../tests/cookie-jar";
import { useTestDatabase } from "../../tests/db";
import { createUser } from "../../tests/factories";
import { sendJson, startFakeApi } from "../../tests/fake-http-server";

const database = useTestDatabase();

/**
 * A local server speaking Google's OAuth endpoints; `profile` is what userinfo answers next, and
 * `challenge` the PKCE challenge of the sign-in under way (the token request must prove it).
 */
let profile: Record<string, unknown> = {};
let challenge = "";
let google: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  google = await startFakeApi((request, res) => {
    if (request.method === "POST" && request.url === "/token") {
      const form = new URLSearchParams(request.body);
      // Google takes the client secret in the body or as HTTP Basic credentials.
      const basic = Buffer.from((request.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString(
        "utf8",
      );
      const secret =
        form.get("client_secret") ?? (basic.startsWith("google-client:") ? basic.slice("google-client:".length) : null);
      const verified =
        createHash("sha256")
          .update(form.get("code_verifier") ?? "")
          .digest("base64url") === challenge;
      if (form.get("code") !== "good-code" || secret !== "google-secret" || !verified)
        return sendJson(res, 400, { error: "invalid_grant" });
      return sendJson(res, 200, {
        access_token: "access-123",
        token_type: "Bearer",
        expires_in: 3599,
        scope: "openid email profile",
      });
    }
    if (request.method === "GET" && request.url === "/oauth2/v3/userinfo") {
      if (request.headers.authorization !== "Bearer access-123") return sendJson(res, 401, { error: "invalid_token" });
      return sendJson(res, 200, profile);
    }
    sendJson(res, 404, {});
  });
});
afterAll(() => google.close());

const context = () =>
  makeTestContext(database, {
    GOOGLE_CLIENT_ID: "google-client",
    GOOGLE_CLIENT_SECRET: "google-secret",
    GOOGLE_API_URL: google.url,
  });

/** The whole round trip: our POST, "Google" sending the browser back with a code, our callback. */
async function signInWithGoogle(code = "good-code", tamperState = false) {
  const jar = new CookieJar();
  const start = jar.store(
    await startGoogle({
      request: new Request("http://localhost:3000/auth/google", {
        method: "POST",
        headers: { "Sec-Fetch-Site": "same-origin" },
      }),
      context: context(),
      params: {},
      ...routeArgs,
    }),
  );
  const authorize = new URL(start.headers.get("Location")!);
  expect(authorize.origin + authorize.pathname).toBe(`${google.url}/o/oauth2/v2/auth`);
  expect(authorize.searchParams.get("redirect_uri")).toBe("http://localhost:3000/auth/google/callback");
  expect(authorize.searchParams.get("client_id")).toBe("google-client");
  expect(authorize.searchParams.get("scope")).toBe("openid email profile");
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("prompt")).toBe("select_account");
  challenge = authorize.searchParams.get("code_challenge") ?? "";
  const state = tamperState ? "not-the-state-we-sent" : authorize.searchParams.get("state");
  const callback = new Request(`http://localhost:3000/auth/google/callback?code=${code}&state=${state}`, {
    headers: { Cookie: jar.header() },
  });
  const done = jar.store(await googleCallback({ request: callback, context: context(), params: {}, ...routeArgs }));
  const me = await apiUser({
    request: new Request("http://localhost:3000/api/user", { headers: { Cookie: jar.header() } }),
    context: context(),
    params: {},
    ...routeArgs,
  });
  expect(jar.names().filter((name) => name.startsWith("google_oauth"))).toEqual([]); // the state cookie served once
  return {
    location: done.headers.get("Location"),
    user: me.status === 200 ? ((await me.json()) as { id: string; email: string; first_name: string }) : null,
  };
}

describe("Sign in with Google", () => {
  it("creates the account from a first Google sign-in", async () => {
    profile = {
      sub: "g-100",
      email: "new.person@gmail.example",
      email_verified: true,
      given_name: "Kiran",
      family_name: "Shah",
      name: "Kiran Shah",
    };
    const { location, user } = await signInWithGoogle();
    expect(location).toBe("/dashboard");
    expect(user).toMatchObject({ email: "new.person@gmail.example", first_name: "Kiran" });
    const row = await database.db
      .selectFrom("users")
      .select(["google_sub", "last_name"])
      .where("id", "=", user!.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ google_sub: "g-100", last_name: "Shah" });
  });

  it("recognises a returning user by Google's sub even after their email changed", async () => {
    profile = { sub: "g-100", email: "renamed@gmail.example", email_verified: true, given_name: "Kiran" };
    const { user } = await signInWithGoogle();
    expect(user?.email).toBe("new.person@gmail.example");
  });

  it("links an existing account only when Google has verified the email", async () => {
    await createUser(database.db, { email: "ravi@example.com" });
    profile = { sub: "g-200", email: "ravi@example.com", email_verified: false, given_name: "Ravi" };
    const refused = await signInWithGoogle();
    expect(refused.user).toBeNull();
    expect(refused.location).toBe("/auth/login");

    profile = { ...profile, email_verified: true };
    const linked = await signInWithGoogle();
    expect(linked.user?.email).toBe("ravi@example.com");
    const row = await database.db
      .selectFrom("users")
      .select("google_sub")
      .where("email", "=", "ravi@example.com")
      .executeTakeFirstOrThrow();
    expect(row.google_sub).toBe("g-200");
  });

  it("fails cleanly when Google refuses the code", async () => {
    profile = { sub: "g-300", email: "x@example.com", email_verified: true };
    const { location, user } = await signInWithGoogle("bad-code");
    expect(user).toBeNull();
    expect(location).toBe("/auth/login");
  });

  it("refuses a callback whose state is not the one this browser was sent with", async () => {
    profile = { sub: "g-400", email: "forged@example.com", email_verified: true };
    const { location, user } = await signInWithGoogle("good-code", true);
    expect(user).toBeNull();
    expect(location).toBe("/auth/login");
  });

  it("is not offered when Google is not configured", async () => {
    const response = await startGoogle({
      request: new Request("http://localhost:3000/auth/google", { method: "POST" }),
      context: makeTestContext(database),
      params: {},
      ...routeArgs,
    }).catch((e: Response) => e);
    expect((response as Response).status).toBe(404);
  });
});
