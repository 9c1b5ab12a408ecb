import { randomBytes } from "node:crypto";
import { createCookie } from "react-router";
import { servesHttps } from "~/config.server";
import type { AppContext } from "~/context.server";
import { cookieSecret } from "~/services/keys.server";
import { type DbOrTx, inTransaction } from "../../db/client";
import { CODE_VALIDITY_MS, type CodeOutcome, newCode, redeemCode } from "./codes.server";
import { hashOpaqueId } from "./session.server";

/** How long a sign-in code and link stay valid. */
export const SIGN_IN_VALIDITY_SECONDS = CODE_VALIDITY_MS / 1000;

/**
 * What a browser's auth_flow cookie (signed) says: its sign-in in progress (a random id, stored
 * only hashed), the address to name on /auth/verify, and a message to show once. Nothing secret.
 */
export type FlowState = { id?: string; email?: string; error?: string };

function authFlowCookie(context: Pick<AppContext, "config">) {
  const secure = servesHttps(context.config);
  return createCookie(secure ? "__Host-auth_flow" : "auth_flow", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    secrets: [cookieSecret(context.config)],
    maxAge: SIGN_IN_VALIDITY_SECONDS,
  });
}

export async function readFlowState(context: Pick<AppContext, "config">, request: Request): Promise<FlowState> {
  const value: unknown = await authFlowCookie(context).parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object") return {};
  const field = (name: keyof FlowState) => {
    const found = (value as Record<string, unknown>)[name];
    return typeof found === "string" && found ? found : undefined;
  };
  return { id: field("id"), email: field("email"), error: field("error") };
}

/** The Set-Cookie value for `state`; an empty state clears the cookie. */
export async function flowStateCookie(context: Pick<AppContext, "config">, state: FlowState): Promise<string> {
  const kept = Object.fromEntries(Object.entries(state).filter(([, value]) => value));
  const cookie = authFlowCookie(context);
  return Object.keys(kept).length ? cookie.serialize(kept) : cookie.serialize("", { maxAge: 0 });
}

/**
 * Starts a sign-in for `email` and returns the browser's id and the code to email. There is one row
 * per address, so this voids the address's earlier code, whichever browser asked for it.
 */
export async function createFlow(context: Pick<AppContext, "config">, db: DbOrTx, email: string) {
  const id = randomBytes(32).toString("base64url");
  const address = email.trim().toLowerCase();
  const { code, stored } = newCode(context.config, "sign-in", address);
  await db
    .insertInto("auth_flows")
    .values({ id_hash: hashOpaqueId(id), email: address, ...stored })
    .onConflict((oc) =>
      oc.column("email").doUpdateSet((eb) => ({
        id_hash: eb.ref("excluded.id_hash"),
        code_hash: eb.ref("excluded.code_hash"),
        attempts: 0,
        created_at: eb.ref("excluded.created_at"),
        expires_at: eb.ref("excluded.expires_at"),
      })),
    )
    .execute();
  return { id, code };
}

/** Which sign-in a code is for: the browser's own (its id), or the one for the address typed with it. */
export type FlowKey = { id: string } | { email: string };

/** Checks a code against a sign-in and spends it when right; `email` is the sign-in's address, if there is one. */
export async function redeemSignInCode(
  context: Pick<AppContext, "config" | "db">,
  key: FlowKey,
  code: string,
): Promise<{ outcome: CodeOutcome; email: string | null }> {
  return inTransaction(context.db, async (tx) => {
    const flow = await tx
      .selectFrom("auth_flows")
      .selectAll()
      .$call((query) =>
        "id" in key
          ? query.where("id_hash", "=", hashOpaqueId(key.id))
          : query.where("email", "=", key.email.trim().toLowerCase()),
      )
      .forUpdate()
      .executeTakeFirst();
    const outcome = await redeemCode(context.config, "sign-in", flow?.email ?? "", flow, code, {
      countAttempt: (row, attempts) =>
        tx.updateTable("auth_flows").set({ attempts }).where("id_hash", "=", row.id_hash).execute(),
      spend: (row) => tx.deleteFrom("auth_flows").where("id_hash", "=", row.id_hash).execute(),
    });
    return { outcome, email: flow?.email ?? null };
  });
}
