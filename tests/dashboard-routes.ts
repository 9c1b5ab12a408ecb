import { randomBytes } from "node:crypto";
import type { AppContext } from "~/context.server";
import { takeToasts } from "~/services/toast.server";
import { makeTestContext } from "./context";
import { CookieJar } from "./cookie-jar";
import type { TestDatabase } from "./db";
import { createUser, signIn } from "./factories";

/** A signed-in user: their id, and the cookies their browser sends. */
export async function signedInUser(
  database: TestDatabase,
  fields: { first_name?: string; language?: "en" | "hi" } = {},
) {
  const tag = randomBytes(5).toString("hex");
  const user = await createUser(database.db, {
    email: `u-${tag}@example.com`,
    first_name: fields.first_name ?? "Asha",
    nickname: `u${tag}`,
    language: fields.language ?? "en",
  });
  const jar = new CookieJar();
  jar.store(
    new Response(null, { headers: { "Set-Cookie": (await signIn(makeTestContext(database), user.id)).setCookie } }),
  );
  return { id: user.id, jar };
}

export const get = (jar: CookieJar, path: string) =>
  new Request(`http://localhost:3000${path}`, { headers: { Cookie: jar.header() } });

/** A same-origin form post; a field given as a list is sent once per value (checkboxes). */
export function post(jar: CookieJar, path: string, fields: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one);
  return new Request(`http://localhost:3000${path}`, {
    method: "POST",
    headers: {
      Cookie: jar.header(),
      "Content-Type": "application/x-www-form-urlencoded",
      "Sec-Fetch-Site": "same-origin",
    },
    body,
  });
}

/**
 * What a loader or action answered, whichever way: a Response returned or thrown (a redirect, a
 * 404), data(value, init), or plain data.
 */
export async function outcome(
  run: () => Promise<unknown>,
): Promise<{ status: number; location: string | null; data: unknown }> {
  let result: unknown;
  try {
    result = await run();
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    result = thrown;
  }
  if (result instanceof Response)
    return { status: result.status, location: result.headers.get("Location"), data: null };
  const withInit = result as { type?: string; data?: unknown; init?: ResponseInit | null };
  if (withInit?.type === "DataWithResponseInit")
    return { status: withInit.init?.status ?? 200, location: null, data: withInit.data };
  return { status: 200, location: null, data: result };
}

/** The errors of a conform reply an action sent back as `{ result }`. */
export const replyErrorsOf = (data: unknown) =>
  (data as { result?: { error?: Record<string, string[] | null> } } | null)?.result?.error ?? null;

/** The toasts (their message keys) a redirecting action flashed, read back as the next page would. */
export async function toastKeysOf(run: () => Promise<unknown>, config: AppContext["config"]) {
  let result: unknown;
  try {
    result = await run();
  } catch (thrown) {
    result = thrown;
  }
  if (!(result instanceof Response)) return [];
  const cookie = result.headers
    .getSetCookie()
    .find((c) => c.startsWith("toast="))
    ?.split(";")[0];
  if (!cookie) return [];
  const { toasts } = await takeToasts(new Request("http://localhost/", { headers: { Cookie: cookie } }), { config });
  return toasts.map((t) => t.key);
}
