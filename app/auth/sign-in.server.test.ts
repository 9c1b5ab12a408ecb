import { afterEach, describe, expect, it, vi } from "vitest";
import { action as loginAction } from "~/routes/_public.auth.login";
import { action as registerAction } from "~/routes/_public.auth.register";
import { action as verifyAction } from "~/routes/_public.auth.verify";
import { loader as apiUserLoader } from "~/routes/api.user";
import { loader as magicLinkLoader } from "~/routes/auth.magic-link";
import { formRequest, makeTestContext, routeArgs } from "../../tests/context";
import { CookieJar } from "../../tests/cookie-jar";
import { useTestDatabase } from "../../tests/db";
import { createUser } from "../../tests/factories";
import { readFlowState } from "./auth-flow.server";

const database = useTestDatabase();
let ipCounter = 0;
const context = () => ({ ...makeTestContext(database), clientIp: `198.51.100.${++ipCounter % 250}` });

afterEach(() => vi.useRealTimers());

function withCookies(request: Request, jar: CookieJar) {
  request.headers.set("Cookie", jar.header());
  return request;
}

async function post(actionFn: typeof loginAction, path: string, fields: Record<string, string>, jar: CookieJar) {
  const result = await actionFn({
    request: withCookies(formRequest(path, fields), jar),
    context: context(),
    params: {},
    ...routeArgs,
  });
  if (!(result instanceof Response)) throw new Error(`expected a redirect, got ${JSON.stringify(result)}`);
  return jar.store(result);
}

async function latestEmailTo(to: string) {
  return database.db
    .selectFrom("outbox_messages")
    .selectAll()
    .where("to_address", "=", to)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirstOrThrow();
}

const codeIn = (text: string) => /(\d{6})/.exec(text)?.[1] ?? "";

async function signedInUser(jar: CookieJar) {
  const response = await apiUserLoader({
    request: withCookies(new Request("http://localhost:3000/api/user"), jar),
    context: context(),
    params: {},
    ...routeArgs,
  });
  return response.status === 200 ? ((await response.json()) as { email: string }) : null;
}

describe("sign-in with an emailed code", () => {
  it("answers the same for known and unknown addresses, and emails each the right thing", async () => {
    await createUser(database.db, { email: "known@example.com" });
    const known = await post(loginAction, "/auth/login", { email: "known@example.com" }, new CookieJar());
    const unknown = await post(loginAction, "/auth/login", { email: "nobody@example.com" }, new CookieJar());
    expect([known.status, known.headers.get("Location")]).toEqual([unknown.status, unknown.headers.get("Location")]);
    expect(known.headers.getSetCookie().map((c) => c.split("=")[0])).toEqual(
      unknown.headers.getSetCookie().map((c) => c.split("=")[0]),
    );
    expect(codeIn((await latestEmailTo("known@example.com")).text_body)).toMatch(/^\d{6}$/);
    const note = await latestEmailTo("nobody@example.com");
    expect(note.text_body).toContain("no account uses it");
    expect(codeIn(note.text_body)).toBe("");
  });

  it("registering an address that has an account looks the same and sends a sign-in email saying so", async () => {
    await createUser(database.db, { email: "taken@example.com", first_name: "Mira" });
    const fields = { firstName: "Other", lastName: "Person", nickname: "other" };
    const fresh = await post(
      registerAction,
      "/auth/register",
      { ...fields, email: "fresh@example.com" },
      new CookieJar(),
    );
    const taken = await post(
      registerAction,
      "/auth/register",
      { ...fields, email: "Taken@Example.com" },
      new CookieJar(),
    );
    expect(taken.status).toBe(fresh.status);
    expect(taken.headers.get("Location")).toBe(fresh.headers.get("Location"));
    expect((await latestEmailTo("Taken@Example.com")).text_body).toContain(
      "This email address is already registered. We have sent you a sign-in link.",
    );
    expect((await latestEmailTo("fresh@example.com")).text_body).toContain("Welcome to Heirloom, Other!");
    const user = await database.db
      .selectFrom("users")
      .select("first_name")
      .where("email", "=", "taken@example.com")
      .executeTakeFirstOrThrow();
    expect(user.first_name).toBe("Mira"); // the existing account is untouched
  });

  it("signs in once with the code; the same code then fails", async () => {
    await createUser(database.db, { email: "once@example.com" });
    const jar = new CookieJar();
    await post(loginAction, "/auth/login", { email: "once@example.com" }, jar);
    const code = codeIn((await latestEmailTo("once@example.com")).text_body);
    const signedIn = await post(verifyAction, "/auth/verify", { code }, jar);
    expect(signedIn.headers.get("Location")).toBe("/dashboard");
    expect((await signedInUser(jar))?.email).toBe("once@example.com");

    const again = await post(verifyAction, "/auth/verify", { code }, new CookieJar());
    expect(again.headers.get("Location")).toBe("/auth/verify");
    const reusedInSameBrowser = await post(
      verifyAction,
      "/auth/verify",
      { code, email: "once@example.com" },
      new CookieJar(),
    );
    expect(reusedInSameBrowser.headers.get("Location")).toBe("/auth/verify");
  });

  it("refuses an expired code", async () => {
    await createUser(database.db, { email: "late@example.com" });
    const jar = new CookieJar();
    await post(loginAction, "/auth/login", { email: "late@example.com" }, jar);
    const code = codeIn((await latestEmailTo("late@example.com")).text_body);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 16 * 60 * 1000 });
    const late = await post(verifyAction, "/auth/verify", { code }, jar);
    expect(late.headers.get("Location")).toBe("/auth/verify");
    expect(await signedInUser(jar)).toBeNull();
  });

  it("voids the old code when a new one is requested", async () => {
    await createUser(database.db, { email: "twice@example.com" });
    const jar = new CookieJar();
    await post(loginAction, "/auth/login", { email: "twice@example.com" }, jar);
    const first = codeIn((await latestEmailTo("twice@example.com")).text_body);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await post(loginAction, "/auth/login", { email: "twice@example.com" }, new CookieJar()); // from another browser
    const second = codeIn((await latestEmailTo("twice@example.com")).text_body);
    if (first !== second) {
      const old = await post(verifyAction, "/auth/verify", { code: first }, jar);
      expect(old.headers.get("Location")).toBe("/auth/verify");
    }
    const other = new CookieJar();
    const ok = await post(verifyAction, "/auth/verify", { code: second, email: "twice@example.com" }, other);
    expect(ok.headers.get("Location")).toBe("/dashboard");
  });

  it("accepts the code typed on another device together with the email", async () => {
    await createUser(database.db, { email: "phone@example.com" });
    await post(loginAction, "/auth/login", { email: "phone@example.com" }, new CookieJar());
    const code = codeIn((await latestEmailTo("phone@example.com")).text_body);
    const laptop = new CookieJar();
    const response = await post(verifyAction, "/auth/verify", { code, email: "PHONE@example.com" }, laptop);
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect((await signedInUser(laptop))?.email).toBe("phone@example.com");
  });

  it("gives up on a sign-in after 5 wrong codes", async () => {
    await createUser(database.db, { email: "guess@example.com" });
    const jar = new CookieJar();
    await post(loginAction, "/auth/login", { email: "guess@example.com" }, jar);
    const code = codeIn((await latestEmailTo("guess@example.com")).text_body);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) await post(verifyAction, "/auth/verify", { code: wrong }, jar);
    const right = await post(verifyAction, "/auth/verify", { code }, jar);
    expect(right.headers.get("Location")).toBe("/auth/verify");
  });

  it("signs in with the emailed link only in the browser that asked, built from APP_URL", async () => {
    await createUser(database.db, { email: "link@example.com" });
    const jar = new CookieJar();
    await post(loginAction, "/auth/login", { email: "link@example.com", redirectTo: "/dashboard/kanban" }, jar);
    const link =
      /(\S+\/auth\/magic-link\?code=\d{6})/.exec((await latestEmailTo("link@example.com")).text_body)?.[1] ?? "";
    expect(link.startsWith("http://localhost:3000/auth/magic-link?code=")).toBe(true);

    // A mail scanner (no cookie) opening the link changes nothing for the real browser.
    const scanner = await magicLinkLoader({ request: new Request(link), context: context(), params: {}, ...routeArgs });
    expect(scanner.headers.get("Location")).toBe("/auth/verify");

    const opened = jar.store(
      await magicLinkLoader({
        request: withCookies(new Request(link), jar),
        context: context(),
        params: {},
        ...routeArgs,
      }),
    );
    expect(opened.headers.get("Location")).toBe("/dashboard/kanban"); // redirectTo, once
    expect((await signedInUser(jar))?.email).toBe("link@example.com");
    expect(jar.names()).not.toContain("auth_redirect");
  });

  it("refuses to send anyone off-site after signing in", async () => {
    await createUser(database.db, { email: "stay@example.com" });
    const jar = new CookieJar();
    await post(loginAction, "/auth/login", { email: "stay@example.com", redirectTo: "//evil.example/x" }, jar);
    const code = codeIn((await latestEmailTo("stay@example.com")).text_body);
    const response = await post(verifyAction, "/auth/verify", { code }, jar);
    expect(response.headers.get("Location")).toBe("/dashboard");
  });

  it("stores neither the browser's sign-in id nor the code", async () => {
    await createUser(database.db, { email: "hashed@example.com" });
    const jar = new CookieJar();
    await post(loginAction, "/auth/login", { email: "hashed@example.com" }, jar);
    const code = codeIn((await latestEmailTo("hashed@example.com")).text_body);
    const { id } = await readFlowState(context(), withCookies(new Request("http://localhost:3000/auth/verify"), jar));
    const row = await database.db
      .selectFrom("auth_flows")
      .selectAll()
      .where("email", "=", "hashed@example.com")
      .executeTakeFirstOrThrow();
    expect(id?.length).toBeGreaterThan(40);
    expect(JSON.stringify(row)).not.toContain(id);
    expect(row.code_hash).not.toContain(code);
  });

  it("counts guesses sent all at once one by one: 5 tries, then the sign-in is spent", async () => {
    await createUser(database.db, { email: "rush@example.com" });
    await post(loginAction, "/auth/login", { email: "rush@example.com" }, new CookieJar());
    const code = codeIn((await latestEmailTo("rush@example.com")).text_body);
    const wrong = code === "000000" ? "111111" : "000000";
    await Promise.all(
      Array.from({ length: 12 }, () =>
        post(verifyAction, "/auth/verify", { code: wrong, email: "rush@example.com" }, new CookieJar()),
      ),
    );
    const row = await database.db
      .selectFrom("auth_flows")
      .select("attempts")
      .where("email", "=", "rush@example.com")
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(5);
    const right = await post(verifyAction, "/auth/verify", { code, email: "rush@example.com" }, new CookieJar());
    expect(right.headers.get("Location")).toBe("/auth/verify");
  });

  it("keeps one sign-in per address when two are asked for at the same moment", async () => {
    await createUser(database.db, { email: "both@example.com" });
    await Promise.all(
      [new CookieJar(), new CookieJar()].map((jar) =>
        post(loginAction, "/auth/login", { email: "both@example.com" }, jar),
      ),
    );
    const rows = await database.db
      .selectFrom("auth_flows")
      .select("email")
      .where("email", "=", "both@example.com")
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("limits sign-in emails per address", async () => {
    await createUser(database.db, { email: "flood@example.com" });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const result = await loginAction({
        request: formRequest("/auth/login", { email: "flood@example.com" }),
        context: context(),
        params: {},
        ...routeArgs,
      });
      statuses.push(
        result instanceof Response ? result.status : (result as unknown as { init: { status: number } }).init.status,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([302, 302, 302, 302, 302]);
    expect(statuses[5]).toBe(429);
  });

  it("/api/user answers 401 when signed out", async () => {
    const response = await apiUserLoader({
      request: new Request("http://localhost:3000/api/user"),
      context: context(),
      params: {},
      ...routeArgs,
    });
    expect(response.status).toBe(401);
  });
});
