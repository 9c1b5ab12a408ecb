import { randomBytes } from "node:crypto";
import { createCookie, createSessionStorage } from "@remix-run/node";
import type { AppContext } from "~/context.server";

/** How long a sign-in code and link stay valid. */
export const SIGN_IN_VALIDITY_SECONDS = 15 * 60;
/** remix-auth-totp's session key for the email a code was sent to. */
export const FLOW_EMAIL_KEY = "auth:email";

/** The signed cookie naming a browser's auth_flows row. */
export function authFlowCookie(context: Pick<AppContext, "config">) {
  const secure = context.config.APP_URL.startsWith("https:");
  return createCookie(secure ? "__Host-auth_flow" : "auth_flow", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    secrets: [context.config.SESSION_SECRET],
    maxAge: SIGN_IN_VALIDITY_SECONDS,
  });
}

/**
 * remix-auth-totp keeps its state in a session; this one lives in the auth_flows table and the
 * browser holds only a signed id, so the code can also be entered on another device (see
 * flowIdForEmail) and nothing secret sits in a cookie.
 */
export function authFlowStorage(context: Pick<AppContext, "config" | "db">) {
  const { db } = context;
  const emailOf = (data: Record<string, unknown>) => {
    const email = data[FLOW_EMAIL_KEY];
    return typeof email === "string" ? email.toLowerCase() : null;
  };
  const expiry = (expires?: Date) => expires ?? new Date(Date.now() + SIGN_IN_VALIDITY_SECONDS * 1000);
  // A new code for an email voids every earlier one, in any browser.
  const voidOthers = async (id: string, email: string | null) => {
    if (email) await db.deleteFrom("auth_flows").where("email", "=", email).where("id", "<>", id).execute();
  };
  return createSessionStorage<Record<string, unknown>>({
    cookie: authFlowCookie(context),
    async createData(data, expires) {
      const id = randomBytes(24).toString("base64url");
      await db.insertInto("auth_flows").values({ id, email: emailOf(data), data: JSON.stringify(data), expires_at: expiry(expires) }).execute();
      await voidOthers(id, emailOf(data));
      return id;
    },
    async readData(id) {
      const row = await db.selectFrom("auth_flows").select("data").where("id", "=", id).where("expires_at", ">", new Date()).executeTakeFirst();
      return row?.data ?? null;
    },
    async updateData(id, data, expires) {
      await db
        .insertInto("auth_flows")
        .values({ id, email: emailOf(data), data: JSON.stringify(data), expires_at: expiry(expires) })
        .onConflict((oc) => oc.column("id").doUpdateSet({ email: emailOf(data), data: JSON.stringify(data), expires_at: expiry(expires) }))
        .execute();
      await voidOthers(id, emailOf(data));
    },
    async deleteData(id) {
      await db.deleteFrom("auth_flows").where("id", "=", id).execute();
    },
  });
}

/** The newest unexpired sign-in for this email: lets a second device finish it with the code. */
export async function flowIdForEmail(context: Pick<AppContext, "db">, email: string): Promise<string | undefined> {
  const row = await context.db
    .selectFrom("auth_flows")
    .select("id")
    .where("email", "=", email.trim().toLowerCase())
    .where("expires_at", ">", new Date())
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}
