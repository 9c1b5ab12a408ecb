import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { signCapability } from "~/services/tokens.server";
import { formRequest, makeTestContext, routeArgs } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createAnswer, createPrompt, createStoryteller, createUser } from "../../tests/factories";
import { action as recordAction, headers as recordHeaders, loader as recordLoader } from "./record.$token/route";
import { loader as photoLoader } from "./record.$token.photo";
import { action as unsubscribeAction, loader as unsubscribeLoader } from "./unsubscribe.$token";

const database = useTestDatabase();
const context = () => makeTestContext(database);
afterAll(async () => {
  await rm(path.join(os.tmpdir(), `heirloom-test-files-${database.name}`), { recursive: true, force: true });
});

const recordToken = (promptId: string) => signCapability(context().config, "record", promptId);
const unsubscribeToken = (storytellerId: string) => signCapability(context().config, "unsubscribe", storytellerId);

/** What a loader returned with `data(value, init)`: status, headers and value. */
function unwrap<T>(result: unknown) {
  const { data, init } = result as { data: T; init: ResponseInit | null };
  return { status: init?.status ?? 200, headers: new Headers(init?.headers), data };
}

// Her record links carry her language (a link without it, or with an old one, is sent to hers).
const getRecord = async (token: string, lng = "en") =>
  unwrap<{ kind: string; title: string; prompt?: string; askerName?: string | null; photoUrl?: string | null }>(
    await recordLoader({
      request: new Request(`http://localhost:3000/record/${token}?lng=${lng}`),
      context: context(),
      params: { token },
      ...routeArgs,
    }),
  );

function tamper(token: string) {
  const [header, payload, signature] = token.split(".");
  const i = Math.floor(signature.length / 2);
  return [header, payload, signature.slice(0, i) + (signature[i] === "A" ? "B" : "A") + signature.slice(i + 1)].join(
    ".",
  );
}

function expectCapabilityHeaders(headers: Headers) {
  expect(headers.get("Referrer-Policy")).toBe("no-referrer, strict-origin");
  expect(headers.get("Cache-Control")).toBe("no-store");
}

describe("record page loader", () => {
  it("shows a sent prompt and who asked it, never cached nor leaked onward", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const { id: storytellerId } = await createStoryteller(database.db, { ownerId: owner.id });
    const prompt = await createPrompt(database.db, { storytellerId, createdBy: owner.id, sentAt: new Date() });
    const page = await getRecord(await recordToken(prompt.id));

    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ kind: "prompt", prompt: prompt.text, askerName: "Priya", photoUrl: null });
    expect(page.data.title).toContain("A question for you");
    expectCapabilityHeaders(page.headers);
    // The route passes the loader's headers through to the page.
    const passed = new Headers(
      recordHeaders({ loaderHeaders: page.headers, actionHeaders: new Headers() } as Parameters<
        typeof recordHeaders
      >[0]) as HeadersInit,
    );
    expectCapabilityHeaders(passed);
  });

  it("is in her language now, when the family changed it after the link went out in English", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const { id: storytellerId } = await createStoryteller(database.db, { ownerId: owner.id, language: "en" });
    const prompt = await createPrompt(database.db, { storytellerId, createdBy: owner.id, sentAt: new Date() });
    const token = await recordToken(prompt.id);
    await database.db.updateTable("storytellers").set({ language: "hi" }).where("id", "=", storytellerId).execute();

    // The English link is asked again in Hindi, so the whole page (title, labels, recorder) is hers.
    const stale = await recordLoader({
      request: new Request(`http://localhost:3000/record/${token}?lng=en&submitted=1`),
      context: context(),
      params: { token },
      ...routeArgs,
    }).catch((thrown: unknown) => thrown);
    expect(stale).toBeInstanceOf(Response);
    expect((stale as Response).status).toBe(302);
    expect((stale as Response).headers.get("Location")).toBe(`/record/${token}?lng=hi&submitted=1`);
    expectCapabilityHeaders((stale as Response).headers);
    const page = await getRecord(token, "hi");
    expect(page.status).toBe(200);
    expect(page.data.title).toContain("आपके लिए एक सवाल");
  });

  it("names the collaborator who wrote the prompt, and the owner when no one is recorded", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const collaborator = await createUser(database.db, { first_name: "Vikram" });
    const { id: storytellerId } = await createStoryteller(database.db, { ownerId: owner.id });
    const byCollaborator = await createPrompt(database.db, {
      storytellerId,
      createdBy: collaborator.id,
      sentAt: new Date(),
    });
    const byNobody = await createPrompt(database.db, { storytellerId, createdBy: null, sentAt: new Date() });
    expect((await getRecord(await recordToken(byCollaborator.id))).data.askerName).toBe("Vikram");
    expect((await getRecord(await recordToken(byNobody.id))).data.askerName).toBe("Priya");
  });

  it("is a 404 'not-found' page for a tampered token, an unsubscribe token and other junk", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const { id: storytellerId } = await createStoryteller(database.db, { ownerId: owner.id });
    const prompt = await createPrompt(database.db, { storytellerId, sentAt: new Date() });
    const good = await recordToken(prompt.id);
    expect((await getRecord(good)).status).toBe(200);

    const wrongPurpose = await signCapability(context().config, "unsubscribe", prompt.id);
    const otherSecret = await signCapability(
      { SESSION_SECRET: "a-completely-different-session-secret-0123456789" },
      "record",
      prompt.id,
    );
    for (const token of [tamper(good), wrongPurpose, otherSecret, "not-a-token", prompt.id, "x".repeat(2000)]) {
      const page = await getRecord(token);
      expect(page.status).toBe(404);
      expect(page.data.kind).toBe("not-found");
      expect(page.data).not.toHaveProperty("prompt");
      expect(page.data.title).toContain("Question not found");
      expectCapabilityHeaders(page.headers);
    }
  });

  it("stops working once the prompt, or its Storyteller, is deleted", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const { id: storytellerId } = await createStoryteller(database.db, { ownerId: owner.id });
    const deletedPrompt = await createPrompt(database.db, { storytellerId, sentAt: new Date() });
    const keptPrompt = await createPrompt(database.db, { storytellerId, sentAt: new Date() });
    const deletedPromptToken = await recordToken(deletedPrompt.id);
    const keptPromptToken = await recordToken(keptPrompt.id);
    expect((await getRecord(deletedPromptToken)).status).toBe(200);

    await database.db.deleteFrom("prompts").where("id", "=", deletedPrompt.id).execute();
    expect(await getRecord(deletedPromptToken)).toMatchObject({ status: 404, data: { kind: "not-found" } });
    expect((await getRecord(keptPromptToken)).status).toBe(200);

    await database.db.deleteFrom("storytellers").where("id", "=", storytellerId).execute();
    expect(await getRecord(keptPromptToken)).toMatchObject({ status: 404, data: { kind: "not-found" } });
  });

  it("is a 404 for a prompt still in the queue (never sent)", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const { id: storytellerId } = await createStoryteller(database.db, { ownerId: owner.id });
    const queued = await createPrompt(database.db, { storytellerId });
    const page = await getRecord(await recordToken(queued.id));
    expect(page).toMatchObject({ status: 404, data: { kind: "not-found" } });
    expect(JSON.stringify(page.data)).not.toContain(queued.text);
  });

  it("shows the sample question for 'sample'", async () => {
    const page = await getRecord("sample");
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ kind: "sample", prompt: "What is your favourite memory from childhood?" });
    expectCapabilityHeaders(page.headers);
  });
});

describe("record page photo", () => {
  const getPhoto = async (token: string) => {
    try {
      return (await photoLoader({
        request: new Request(`http://localhost:3000/record/${token}/photo`),
        context: context(),
        params: { token },
        ...routeArgs,
      })) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };

  it("serves the asker's photo only through a live record link", async () => {
    const key = `profile/${randomUUID()}.png`;
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
    await context().storage.put(key, bytes, "image/png");
    const owner = await createUser(database.db, { first_name: "Priya", profile_pic_key: key });
    const { id: storytellerId } = await createStoryteller(database.db, { ownerId: owner.id });
    const prompt = await createPrompt(database.db, { storytellerId, createdBy: owner.id, sentAt: new Date() });
    const token = await recordToken(prompt.id);

    expect((await getRecord(token)).data.photoUrl).toBe(`/record/${token}/photo`);
    const ok = await getPhoto(token);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Content-Type")).toBe("image/png");
    expectCapabilityHeaders(ok.headers);
    expect(new Uint8Array(await ok.arrayBuffer())).toEqual(bytes);

    expect((await getPhoto(tamper(token))).status).toBe(404);
    await database.db.deleteFrom("prompts").where("id", "=", prompt.id).execute();
    expect((await getPhoto(token)).status).toBe(404);
  });

  it("is a 404 when the asker has no photo", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id });
    const prompt = await createPrompt(database.db, { storytellerId: storyteller.id, sentAt: new Date() });
    expect((await getPhoto(await recordToken(prompt.id))).status).toBe(404);
  });
});

describe("record page forms", () => {
  const post = async (token: string, fields: Record<string, string>, env: Record<string, string> = {}) =>
    unwrap<{ ok: boolean; error?: string; skipped?: boolean }>(
      await recordAction({
        request: formRequest(`/record/${token}`, fields),
        context: makeTestContext(database, env),
        params: { token },
        ...routeArgs,
      }),
    );
  const promptRow = (id: string) =>
    database.db
      .selectFrom("prompts")
      .select(["opened_at", "skipped_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

  it("takes only its own intents: anything else is a 400 that changes nothing", async () => {
    const owner = await createUser(database.db, { first_name: "Ravi" });
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id });
    const prompt = await createPrompt(database.db, { storytellerId: storyteller.id, sentAt: new Date() });
    const token = await recordToken(prompt.id);
    for (const fields of [{ intent: "skipped", confirm: "on" }, { intent: "" }, {}] as Record<string, string>[]) {
      expect(await post(token, fields)).toMatchObject({ status: 400, data: { ok: false, error: "upload.missing" } });
    }
    expect(await promptRow(prompt.id)).toEqual({ opened_at: null, skipped_at: null });

    expect(await post(token, { intent: "opened" })).toMatchObject({ status: 200, data: { ok: true } });
    expect(await post(token, { intent: "skip", confirm: "on" })).toMatchObject({
      status: 200,
      data: { ok: true, skipped: true },
    });
    const row = await promptRow(prompt.id);
    expect(row.opened_at).toBeInstanceOf(Date);
    expect(row.skipped_at).toBeInstanceOf(Date);
    // A send to someone needs an answer first; an empty address is named as such.
    expect(await post(token, { intent: "send-to-someone", to: "" })).toMatchObject({
      status: 400,
      data: { ok: false, sendError: "share.invalidAddress" },
    });
  });

  it("sends her answer to a number of any country by WhatsApp (read in her country), a US mobile by text", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      timeZone: "Asia/Kolkata",
      firstName: "Kamla",
      language: "hi",
    });
    const prompt = await createPrompt(database.db, { storytellerId: storyteller.id, sentAt: new Date() });
    await createAnswer(database.db, { storytellerId: storyteller.id, promptId: prompt.id });
    const token = await recordToken(prompt.id);
    const sent = [
      ["098765 43210", "+919876543210", "whatsapp"],
      ["+44 7400 123456", "+447400123456", "whatsapp"],
      ["+1 416 555 0199", "+14165550199", "sms"],
    ] as const;
    for (const [to, e164] of sent)
      expect(await post(token, { intent: "send-to-someone", to })).toMatchObject({
        status: 200,
        data: { ok: true, sentTo: e164 },
      });
    const messages = await database.db
      .selectFrom("outbox_messages")
      .select(["channel", "to_address", "text_body"])
      .where(
        "to_address",
        "in",
        sent.map(([, e164]) => e164),
      )
      .orderBy("created_at")
      .execute();
    expect(messages.map((m) => [m.to_address, m.channel])).toEqual(sent.map(([, e164, channel]) => [e164, channel]));
    expect(messages[0].text_body).toMatch(
      /^Kamla ने Heirloom पर आपके साथ एक कहानी साझा की है। यहाँ सुनें: http:\/\/localhost:3000\/\S+/,
    );
    expect(await post(token, { intent: "send-to-someone", to: "12345" })).toMatchObject({
      data: { sendError: "share.invalidAddress" },
    });
  });

  it("tells a number of another country that texts go only to the US and Canada where WhatsApp is not set up", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, timeZone: "Asia/Kolkata" });
    const prompt = await createPrompt(database.db, { storytellerId: storyteller.id, sentAt: new Date() });
    await createAnswer(database.db, { storytellerId: storyteller.id, promptId: prompt.id });
    const token = await recordToken(prompt.id);
    const textsOnly = {
      TWILIO_ACCOUNT_SID: "AC" + "1".repeat(32),
      TWILIO_AUTH_TOKEN: "auth-token-1234567890",
      TWILIO_FROM_NUMBER: "+15555550100",
    };
    for (const to of ["+44 7400 123456", "098765 43210"])
      expect(await post(token, { intent: "send-to-someone", to }, textsOnly)).toMatchObject({
        status: 400,
        data: { ok: false, sendError: "share.textsUsCaOnly" },
      });
  });
});

describe("record page upload that cannot be read", () => {
  it("says the recording did not arrive whole, not that none was chosen, and keeps nothing", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id });
    const prompt = await createPrompt(database.db, { storytellerId: storyteller.id, sentAt: new Date() });
    const token = await recordToken(prompt.id);
    // A part cut off mid-header: the parser cannot follow the body.
    const body = '--b\r\nContent-Disposition: form-data; name="audio"; filename="a.webm"\r\nContent-Ty';
    const request = new Request(`http://localhost:3000/record/${token}`, {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=b", "Content-Length": String(body.length) },
      body,
    });
    const result = await unwrap<{ ok: boolean; error?: string }>(
      await recordAction({ request, context: context(), params: { token }, ...routeArgs }),
    );
    expect(result).toMatchObject({ status: 400, data: { ok: false, error: "upload.garbled" } });
    const answers = await database.db.selectFrom("answers").where("prompt_id", "=", prompt.id).execute();
    expect(answers).toEqual([]);
  });
});

describe("unsubscribe page", () => {
  const unsubscribedAt = async (id: string) =>
    (
      await database.db
        .selectFrom("storytellers")
        .select("unsubscribed_at")
        .where("id", "=", id)
        .executeTakeFirstOrThrow()
    ).unsubscribed_at;

  const getPage = async (token: string) =>
    unwrap<{ found: boolean; address?: string; askerName?: string; already?: boolean }>(
      await unsubscribeLoader({
        request: new Request(`http://localhost:3000/unsubscribe/${token}`),
        context: context(),
        params: { token },
        ...routeArgs,
      }),
    );
  const submitForm = (token: string) =>
    unsubscribeAction({
      request: formRequest(`/unsubscribe/${token}`, {}),
      context: context(),
      params: { token },
      ...routeArgs,
    });
  /** RFC 8058: what a mail client sends, with no cookie and no Sec-Fetch-Site. */
  const oneClick = (token: string) =>
    unsubscribeAction({
      request: new Request(`http://localhost:3000/unsubscribe/${token}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      }),
      context: context(),
      params: { token },
      ...routeArgs,
    }).then((result) => unwrap<{ ok: boolean }>(result));

  it("only shows what will stop on GET, however often it is opened", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const address = `nani-${randomUUID()}@example.com`;
    const { id } = await createStoryteller(database.db, { ownerId: owner.id, email: address });
    const token = await unsubscribeToken(id);
    for (let i = 0; i < 3; i++) {
      const page = await getPage(token);
      expect(page.status).toBe(200);
      expect(page.data).toMatchObject({ found: true, address, askerName: "Priya", already: false });
      expectCapabilityHeaders(page.headers);
    }
    expect(await unsubscribedAt(id)).toBeNull();
  });

  it("unsubscribes from the page's form, and says so on the next visit", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const { id } = await createStoryteller(database.db, { ownerId: owner.id });
    const token = await unsubscribeToken(id);
    const result = unwrap<{ ok: boolean }>(await submitForm(token));
    expect(result.status).toBe(200);
    expect(result.data).toEqual({ ok: true });
    expectCapabilityHeaders(result.headers);
    const at = await unsubscribedAt(id);
    expect(at).toBeInstanceOf(Date);
    expect(Date.now() - at!.getTime()).toBeLessThan(60_000);
    expect((await getPage(token)).data.already).toBe(true);
  });

  it("unsubscribes with RFC 8058 one-click, once: repeating it keeps the first time", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const { id } = await createStoryteller(database.db, { ownerId: owner.id });
    const { id: other } = await createStoryteller(database.db, { ownerId: owner.id });
    const token = await unsubscribeToken(id);

    const response = await oneClick(token);
    expect(response.status).toBe(200);
    expect(response.data).toEqual({ ok: true });
    expectCapabilityHeaders(response.headers);
    const first = await unsubscribedAt(id);
    expect(first).toBeInstanceOf(Date);
    expect(await unsubscribedAt(other)).toBeNull();

    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await oneClick(token);
    expect(again.status).toBe(200);
    unwrap(await submitForm(token));
    expect(await unsubscribedAt(id)).toEqual(first);
  });

  it("unsubscribes a one-click POST sent as multipart/form-data too", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const { id } = await createStoryteller(database.db, { ownerId: owner.id });
    const token = await unsubscribeToken(id);
    const body = new FormData();
    body.set("List-Unsubscribe", "One-Click");
    const result = await unsubscribeAction({
      request: new Request(`http://localhost:3000/unsubscribe/${token}`, { method: "POST", body }),
      context: context(),
      params: { token },
      ...routeArgs,
    });
    expect(unwrap(result).status).toBe(200);
    expect(await unsubscribedAt(id)).toBeInstanceOf(Date);
  });

  it("is a 404 for an invalid token, changing nothing", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const { id } = await createStoryteller(database.db, { ownerId: owner.id });
    const good = await unsubscribeToken(id);
    const recordForSameId = await signCapability(context().config, "record", id);
    for (const token of [tamper(good), recordForSameId, "junk", randomUUID()]) {
      const page = await getPage(token);
      expect(page.status).toBe(404);
      expect(page.data.found).toBe(false);
      expectCapabilityHeaders(page.headers);

      const form = unwrap<{ ok: boolean }>(await submitForm(token));
      expect(form.status).toBe(404);
      expect(form.data).toEqual({ ok: false });

      const response = await oneClick(token);
      expect(response.status).toBe(404);
      expect(response.data).toEqual({ ok: false });
    }
    expect(await unsubscribedAt(id)).toBeNull();
  });

  it("is a 404 once the Storyteller is deleted", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const { id } = await createStoryteller(database.db, { ownerId: owner.id });
    const token = await unsubscribeToken(id);
    await database.db.deleteFrom("storytellers").where("id", "=", id).execute();
    expect((await getPage(token)).status).toBe(404);
    expect((await oneClick(token)).status).toBe(404);
  });
});
