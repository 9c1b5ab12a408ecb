import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { watchLogs } from "~/services/logger.server";
import { signCapability } from "~/services/tokens.server";
import { AddGroupIntent } from "~/utils/group-schema";
import { makeTestContext } from "../context";
import { useTestDatabase } from "../db";
import { createSignedInUser, createStoryteller, createUser } from "../factories";
import { type ServedBuild, serveBuild } from "../serve-build";

// What a hostile client found (decision 038) through the real HTTP app (the production build on
// server/http.ts): posts that were a 500 or a bare 400 with an error-level log line and stack.
// Each answer here is a 4xx with a message in English and Hindi, and nothing is logged as an error.
const database = useTestDatabase();
let site: ServedBuild;
let base = "";
const errorLines: unknown[][] = [];
let unwatch = () => {};

beforeAll(async () => {
  site = await serveBuild(database, { env: { DATA_DIR: path.join(os.tmpdir(), `heirloom-${database.name}`) } });
  base = site.base;
  unwatch = watchLogs((level, args) => {
    if (level === "error" || level === "fatal") errorLines.push(args);
    return false;
  });
});
afterAll(async () => {
  unwatch();
  await site.close();
});
afterEach(() => {
  expect(errorLines.splice(0), "error-level log lines").toEqual([]);
});

type Sent = { status: number; type: string; text: string };

function post(target: string, headers: Record<string, string>, fields: [string, string][]): Promise<Sent> {
  const body = new URLSearchParams(fields).toString();
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(target, base),
      { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, type: String(response.headers["content-type"]), text }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

describe("Add Group's invitation list under any name", () => {
  const sameOrigin = () => ({ Origin: base, "Sec-Fetch-Site": "same-origin" });
  const cases: [string, [string, string][]][] = [
    [
      "the list under its bare name",
      [
        ["intent", AddGroupIntent.more],
        ["emails", "x"],
      ],
    ],
    [
      "a bare name and a good address",
      [
        ["intent", AddGroupIntent.submit],
        ["emails", "not an address"],
      ],
    ],
    [
      "an unknown intent with the bare name",
      [
        ["intent", "bogus"],
        ["emails", "x"],
      ],
    ],
    ["an unknown intent alone", [["intent", "bogus"]]],
    [
      "as the form posts it",
      [
        ["intent", AddGroupIntent.more],
        ["emails[0]", "x"],
        ["emails[1]", "y"],
      ],
    ],
    [
      "the bare name twice",
      [
        ["intent", AddGroupIntent.more],
        ["emails", "x"],
        ["emails", "y"],
      ],
    ],
    [
      "the bare name beside an indexed one",
      [
        ["intent", AddGroupIntent.more],
        ["emails", "x"],
        ["emails[0]", "y"],
      ],
    ],
  ];
  it.each(cases)("%s: a 400 page that says what is wrong", async (_name, fields) => {
    const me = await createSignedInUser(makeTestContext(database));
    const sent = await post("/dashboard/groups/new?step=3", { ...sameOrigin(), Cookie: me.cookie }, fields);
    expect(sent.status).toBe(400);
    expect(sent.type).toContain("text/html");
    expect(sent.text).toMatch(/Email must be a valid email address|This page is out of date/);
  });
});

describe("cross-site and Host-mismatched posts", () => {
  async function unsubscribeToken() {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
    const token = await signCapability(makeTestContext(database).config, "unsubscribe", storyteller.id);
    const unsubscribed = async () =>
      (
        await database.db
          .selectFrom("storytellers")
          .select("unsubscribed_at")
          .where("id", "=", storyteller.id)
          .executeTakeFirstOrThrow()
      ).unsubscribed_at;
    return { token, unsubscribed };
  }

  it("a foreign Origin on the unsubscribe post: a translated 403, and the Storyteller is still subscribed", async () => {
    const { token, unsubscribed } = await unsubscribeToken();
    const sent = await post(`/unsubscribe/${token}`, { Origin: "https://evil.example" }, []);
    expect(sent.status).toBe(403);
    expect(sent.text).toContain("sent from another website");
    expect(sent.text).toContain("किसी दूसरी वेबसाइट से भेजा गया");
    expect(await unsubscribed()).toBeNull();
    // A mail client's one-click post (no Origin) still works.
    expect((await post(`/unsubscribe/${token}`, {}, [])).status).toBe(200);
    expect(await unsubscribed()).not.toBeNull();
  });

  it("a foreign Origin on a dashboard form: a translated 403", async () => {
    const me = await createSignedInUser(makeTestContext(database));
    const sent = await post("/dashboard/notifications", { Origin: "https://evil.example", Cookie: me.cookie }, [
      ["intent", "markAllRead"],
    ]);
    expect(sent.status).toBe(403);
    expect(sent.text).toContain("sent from another website");
  });

  it("our own page reached under another Host (a proxy that rewrites it): a translated 403 that says so", async () => {
    const me = await createSignedInUser(makeTestContext(database));
    const markAll: [string, string][] = [["intent", "markAllRead"]];
    const sent = await post(
      "/dashboard/notifications",
      { Origin: base, "Sec-Fetch-Site": "same-origin", Host: "heirloom.internal:8080", Cookie: me.cookie },
      markAll,
    );
    expect(sent.status).toBe(403);
    expect(sent.text).toContain("an address it does not answer to");
    expect(sent.text).toContain("ऐसे पते से पहुँचा");
    // Without Fetch Metadata, an Origin that is neither APP_URL's nor the Host's is another site's.
    const old = await post(
      "/dashboard/notifications",
      { Origin: base, Host: "heirloom.internal", Cookie: me.cookie },
      markAll,
    );
    expect(old.status).toBe(403);
    expect(old.text).toContain("sent from another website");
    const { token, unsubscribed } = await unsubscribeToken();
    const unsubscribe = await post(`/unsubscribe/${token}`, { Origin: base, Host: "heirloom.internal" }, []);
    expect(unsubscribe.status).toBe(403);
    expect(await unsubscribed()).toBeNull();
  });
});
