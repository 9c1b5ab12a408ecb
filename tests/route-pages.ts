// Every page the build serves, from React Router's route manifest (build/server): what bench:js
// weighs and what tests/e2e/every-screen.spec.ts lays out at 360 px, so a new route is in both.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { signCapability } from "../app/services/tokens.server";
import type { DbOrTx } from "../db/client";
import {
  createAnswer,
  createGroup,
  createGroupInvitation,
  createListenLink,
  createPrompt,
  createSelfStoryteller,
  createShareLink,
  createStoryteller,
  createUser,
} from "./factories";

export type ServerRoute = { path?: string; index?: boolean; parentId?: string; module: Record<string, unknown> };

/** The build's routes (run `npm run build` first). */
export async function builtRoutes(): Promise<Record<string, ServerRoute>> {
  const built = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as {
    routes: Record<string, ServerRoute>;
  };
  return built.routes;
}

/**
 * Each route with a component that no other page nests in, its full path with the parameters filled
 * in by `fill`, and whether it is standalone (no React in the browser, decision 026). A route with a
 * parameter `fill` does not know throws, so none goes unchecked.
 */
export function pagesFromManifest(routes: Record<string, ServerRoute>, fill: (param: string, path: string) => string) {
  const isPage = (id: string) => typeof routes[id].module.default === "function";
  const parents = new Set(Object.values(routes).map((route) => route.parentId));
  const chain = (id: string | undefined): string[] => (id ? [...chain(routes[id].parentId), id] : []);
  return Object.keys(routes)
    .filter((id) => isPage(id) && !Object.keys(routes).some((child) => routes[child].parentId === id && isPage(child)))
    .filter((id) => !parents.has(id) || !routes[id].index)
    .map((id) => {
      const ids = chain(id);
      const pattern = `/${ids
        .map((each) => routes[each].path)
        .filter(Boolean)
        .join("/")}`;
      const path = pattern
        .split("/")
        .map((segment) => (segment.startsWith(":") || segment === "*" ? fill(segment, pattern) : segment))
        .join("/");
      const standalone = ids.some((each) => (routes[each].module.handle as { standalone?: boolean })?.standalone);
      return { id, pattern, path, standalone };
    });
}

/** A page's id is signed-out (public or capability) or a dashboard page that needs sign-in. */
export const signedOutPage = (id: string) =>
  id.startsWith("routes/_public") || /^routes\/(record|unsubscribe|s|l)\./.test(id);

/** What a page answers besides 200. */
export const expectedStatus: Record<string, number> = {
  "routes/_public.invitations.$token": 404,
  "routes/_public.$": 404,
  "routes/_public.404": 404,
  "routes/_public.500": 500,
  "routes/dashboard.$": 404,
};

/** Picks the value for `param` in `pattern` from a table keyed by path prefixes ending in the parameter. */
export function filler(values: Record<string, string>, what: string) {
  return (param: string, pattern: string) => {
    const key = Object.keys(values)
      .filter((prefix) => pattern.startsWith(prefix) && prefix.endsWith(param))
      .sort((a, b) => b.length - a.length)[0];
    if (!key) throw new Error(`${what} has no value for ${param} in ${pattern}: add one to its table`);
    return values[key];
  };
}

/**
 * One of everything a page shows, for `user`: a Storyteller with a queued and a sent prompt and an
 * answer, a group around them (another member, an invitation), the user's own stories with a prompt
 * to record, and links to the answer. Returns the parameter table for `filler` and the query strings pages need besides.
 */
export async function oneOfEverything(
  db: DbOrTx,
  config: { SESSION_SECRET: string },
  user: { id: string; email: string; first_name: string; nickname: string },
) {
  const storyteller = await createStoryteller(db, { ownerId: user.id, nickname: "Nani" });
  const sent = await createPrompt(db, { storytellerId: storyteller.id, sentAt: new Date() });
  const answer = await createAnswer(db, { storytellerId: storyteller.id });
  // A member besides the owner and a pending invitation: the group page's Remove, Resend and Revoke.
  const member = await createUser(db, { first_name: "Ravi" });
  const group = await createGroup(db, { ownerId: user.id, storytellerId: storyteller.id, collaborators: [member.id] });
  await createGroupInvitation(db, { groupId: group.id, invitedBy: user.id });
  const self = await createSelfStoryteller(db, user);
  const ownPrompt = await createPrompt(db, { storytellerId: self.id, createdBy: user.id, sentAt: new Date() });
  const share = await createShareLink(db, { answerId: answer.id, createdBy: user.id });
  const listen = await createListenLink(db, { answerId: answer.id, createdBy: user.id });
  const values: Record<string, string> = {
    "/dashboard/recipient/:id": storyteller.id,
    "/dashboard/groups/:id": group.id,
    "/dashboard/answers/:answerId": answer.id,
    "/dashboard/mystories/record/:promptId": ownPrompt.id,
    "/dashboard/user/:nickname": user.nickname,
    "/responses/:recipientId": storyteller.id,
    "/responses/register/:recipientId": storyteller.id,
    "/record/:token": await signCapability(config, "record", sent.id),
    "/unsubscribe/:token": await signCapability(config, "unsubscribe", storyteller.id),
    "/s/:token": await signCapability(config, "share", share.id),
    "/l/:token": await signCapability(config, "listen", listen.id),
    "/invitations/:token": "not-a-real-token",
    "/:page": "faqs",
    "/dashboard/*": "no/such/page",
    "/*": "no/such/page",
  };
  const query: Record<string, string> = {
    "routes/responses.register.$recipientId": `?t=${await signCapability(config, "register", storyteller.id)}`,
  };
  return { values, query, storytellerId: storyteller.id };
}
