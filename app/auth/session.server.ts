import { createHash, randomBytes } from "node:crypto";
import { createCookie, redirect } from "react-router";
import { servesHttps } from "~/config.server";
import type { AppContext } from "~/context.server";
import { log } from "~/services/logger.server";
import type { DbOrTx } from "../../db/client";
import { preparedQuery } from "../../db/prepared";

const IDLE_TIMEOUT_MS = 14 * 24 * 60 * 60 * 1000;
const ABSOLUTE_TIMEOUT_MS = 60 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so reading pages does not write on every request. */
const TOUCH_INTERVAL_MS = 60 * 60 * 1000;

// __Host- needs Secure, which needs https; local http installs use a plain name.
function sessionCookie(config: AppContext["config"]) {
  const secure = servesHttps(config);
  return createCookie(secure ? "__Host-session" : "session", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge: ABSOLUTE_TIMEOUT_MS / 1000,
  });
}

/** Ids a browser holds (sessions, sign-ins in progress) are stored only hashed: a leaked table signs nobody in. */
export const hashOpaqueId = (id: string) => createHash("sha256").update(id).digest("base64url");

export type SessionUser = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  nickname: string;
  profile_pic_key: string | null;
  language: "en" | "hi";
  /** The zone dates are shown in (null until the browser or Settings says): `readerTimeZone`. */
  time_zone: string | null;
};

/** Creates a session row and returns the Set-Cookie value carrying its (unhashed) id. */
export async function createUserSession(
  context: Pick<AppContext, "config">,
  db: DbOrTx,
  userId: string,
  userAgent?: string | null,
) {
  const id = randomBytes(32).toString("base64url");
  await db
    .insertInto("sessions")
    .values({
      id_hash: hashOpaqueId(id),
      user_id: userId,
      expires_at: new Date(Date.now() + ABSOLUTE_TIMEOUT_MS),
      user_agent: userAgent?.slice(0, 300) ?? null,
    })
    .execute();
  return sessionCookie(context.config).serialize(id);
}

/**
 * True when the request carries a session cookie (live or not), read without the database: its
 * pages may hold private things (live share links), so entry.server.tsx marks them not to be stored.
 */
export async function carriesSessionCookie(request: Request, context: Pick<AppContext, "config">): Promise<boolean> {
  const id = await sessionCookie(context.config).parse(request.headers.get("Cookie"));
  return typeof id === "string" && id.length > 0;
}

// The loaders of one page (root, layout, page) each check the session; one lookup serves them all.
// React Router hands each loader its own copy of the Request but the same load context, so the
// lookup is kept on the context, for that cookie. Only reads share it: the loaders that run after
// an action see what the action changed (a new name, a new language).
const sessionLookups = new WeakMap<object, { cookie: string | null; lookup: Promise<SessionUser | null> }>();

/** The signed-in user, or null. Expired (idle or absolute) sessions count as signed out. */
export function getSessionUser(
  request: Request,
  context: Pick<AppContext, "config" | "db">,
): Promise<SessionUser | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return lookUpSessionUser(request, context);
  const cookie = request.headers.get("Cookie");
  const shared = sessionLookups.get(context);
  if (shared && shared.cookie === cookie) return shared.lookup;
  const lookup = lookUpSessionUser(request, context);
  sessionLookups.set(context, { cookie, lookup });
  return lookup;
}

// Every page asks it (once per request): compiled once (decision 056).
const sessionUserQuery = preparedQuery(
  ["idHash", "now", "idleSince"],
  (db, { idHash, now, idleSince }: { idHash: string; now: Date; idleSince: Date }) =>
    db
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .select([
        "users.id",
        "users.email",
        "users.first_name",
        "users.last_name",
        "users.nickname",
        "users.profile_pic_key",
        "users.language",
        "users.time_zone",
        "sessions.last_seen_at",
        "sessions.id_hash",
      ])
      .where("sessions.id_hash", "=", idHash)
      .where("sessions.expires_at", ">", now)
      .where("sessions.last_seen_at", ">", idleSince),
);

async function lookUpSessionUser(
  request: Request,
  context: Pick<AppContext, "config" | "db">,
): Promise<SessionUser | null> {
  const id = await sessionCookie(context.config).parse(request.headers.get("Cookie"));
  if (typeof id !== "string" || id.length < 20) return null;
  const [row] = await sessionUserQuery(context.db, {
    idHash: hashOpaqueId(id),
    now: new Date(),
    idleSince: new Date(Date.now() - IDLE_TIMEOUT_MS),
  });
  if (!row) return null;
  if (Date.now() - row.last_seen_at.getTime() > TOUCH_INTERVAL_MS) {
    await context.db
      .updateTable("sessions")
      .set({ last_seen_at: new Date() })
      .where("id_hash", "=", row.id_hash)
      .execute();
  }
  const { last_seen_at: _seen, id_hash: _hash, ...user } = row;
  return user;
}

const PROBE_ORIGIN = "http://redirect.check";

/**
 * Only same-site relative paths: "/dashboard/x?y=1" yes; "//evil.example", "https://…", "/\\evil",
 * "/\t/evil" (browsers drop the tab) or anything with control characters no.
 */
export function safeRedirectPath(value: unknown, fallback = "/dashboard"): string {
  if (typeof value !== "string" || !value.startsWith("/") || /[\p{Cc} \\]/u.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN || url.pathname.startsWith("//")) return fallback;
  return url.pathname + url.search + url.hash;
}

export async function requireUser(request: Request, context: Pick<AppContext, "config" | "db">): Promise<SessionUser> {
  const user = await getSessionUser(request, context);
  if (user) return user;
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.pathname + url.search);
  throw redirect(`/auth/login?${new URLSearchParams({ redirectTo })}`);
}

/** Deletes the session row; the cookie is cleared whether or not that worked. */
export async function destroyUserSession(request: Request, context: Pick<AppContext, "config" | "db">) {
  sessionLookups.delete(context);
  const cookie = sessionCookie(context.config);
  const id = await cookie.parse(request.headers.get("Cookie"));
  let deleted = true;
  if (typeof id === "string") {
    try {
      await context.db.deleteFrom("sessions").where("id_hash", "=", hashOpaqueId(id)).execute();
    } catch (error) {
      log.error({ module: "session", err: error }, "could not delete the session");
      deleted = false;
    }
  }
  return { deleted, setCookie: await cookie.serialize("", { maxAge: 0 }) };
}
