import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendDelivery } from "~/models/delivery.server";
import { keptAnswers, keptRecordings } from "~/models/keepsake.server";
import { getMyStories } from "~/models/my-stories.server";
import { getTimelinePage } from "~/models/timeline.server";
import { replyAddress } from "~/services/reply-address.server";
import { makeTestContext, routeArgs } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createDelivery, createPrompt, createSentEmail, createStoryteller, createUser } from "../../tests/factories";
import { action } from "./webhooks.postmark.inbound";

const database = useTestDatabase();
const SECRET = "inbound-secret-1234567890";
const context = () =>
  makeTestContext(database, { POSTMARK_WEBHOOK_SECRET: SECRET, INBOUND_EMAIL_DOMAIN: "replies.heirloom.example" });
const basic = (password: string) => `Basic ${Buffer.from(`postmark:${password}`).toString("base64")}`;

// Postmark's side: a real HTTP server in front of the route, posted to as Postmark posts.
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const request = new Request(`http://localhost${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: Readable.toWeb(req) as ReadableStream,
      duplex: "half",
    } as RequestInit);
    Promise.resolve(action({ request, context: context(), params: {}, ...routeArgs }))
      .catch((thrown: unknown) => {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      })
      .then(async (response) => {
        // A refusal before the body was read (401) leaves it on the socket: taken off, as a server does.
        if (!req.readableEnded) req.resume();
        res.writeHead(response.status, { ...Object.fromEntries(response.headers), Connection: "close" });
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch(() => {
        res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/postmark/inbound`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (body: unknown, authorization: string | null = basic(SECRET)) =>
  fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(authorization ? { Authorization: authorization } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

/** She was asked a question by email (its Reply-To is what she replies to). */
async function askedByEmail(language: "en" | "hi" = "en") {
  const owner = await createUser(database.db, { first_name: "Priya" });
  const email = `kamala-${randomBytes(4).toString("hex")}@example.com`;
  const storyteller = await createStoryteller(database.db, { ownerId: owner.id, email, language, prompts: [] });
  const prompt = await createPrompt(database.db, {
    storytellerId: storyteller.id,
    text: "What was your childhood home like?",
    sentAt: new Date(),
  });
  await createSentEmail(database.db, { promptId: prompt.id, to: email });
  const address = replyAddress(context().config, prompt.id)!;
  return { email, promptId: prompt.id, address, storytellerId: storyteller.id, owner };
}

/** An inbound message as Postmark's webhook sends it. */
function inbound(
  asked: { email: string; address: string },
  fields: { TextBody?: string; HtmlBody?: string; StrippedTextReply?: string; From?: string } = {},
  attachments: { Name: string; Content: string; ContentType: string; ContentLength?: number }[] = [],
) {
  return {
    FromName: "Kamala",
    MessageStream: "inbound",
    From: asked.email,
    FromFull: { Email: asked.email, Name: "Kamala", MailboxHash: "" },
    To: asked.address,
    ToFull: [{ Email: asked.address, Name: "", MailboxHash: asked.address.slice(6, asked.address.indexOf("@")) }],
    Cc: "",
    OriginalRecipient: asked.address,
    Subject: "Re: A question from Priya",
    MessageID: randomUUID(),
    ReplyTo: "",
    MailboxHash: asked.address.slice(6, asked.address.indexOf("@")),
    Date: new Date().toUTCString(),
    TextBody: "",
    HtmlBody: "",
    StrippedTextReply: "",
    Tag: "",
    Headers: [],
    Attachments: attachments,
    ...fields,
  };
}

const answerOf = (promptId: string) =>
  database.db.selectFrom("answers").selectAll().where("prompt_id", "=", promptId).execute();
const toldHer = (email: string) =>
  database.db
    .selectFrom("outbox_messages")
    .select(["subject", "text_body"])
    .where("to_address", "=", email)
    // Not the question email itself (createSentEmail's).
    .where("subject", "!=", "A question for you")
    .orderBy("created_at")
    .execute();

const TWO_PARAGRAPHS = "When I was a girl we lived by the river.\n\nWe swam every evening, all of us.";

describe("a question email's Reply-To", () => {
  it("names the question, so her reply finds it", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
    const prompt = await createPrompt(database.db, { storytellerId: storyteller.id });
    const delivery = await createDelivery(database.db, { promptId: prompt.id });
    const ctx = context();
    expect(await sendDelivery(ctx, delivery.id, { sendNow: true })).toBe("sent");
    const message = await database.db
      .selectFrom("outbox_messages as m")
      .innerJoin("deliveries as d", "d.outbox_message_id", "m.id")
      .select("m.headers")
      .where("d.id", "=", delivery.id)
      .executeTakeFirstOrThrow();
    expect(message.headers["Reply-To"]).toBe(replyAddress(ctx.config, prompt.id));
    expect(message.headers["Reply-To"]).toMatch(/^reply\+[0-9a-f]{52}@replies\.heirloom\.example$/);
  });
});

describe("her reply by email", () => {
  const shapes: [string, "en" | "hi", Record<string, string>, string][] = [
    [
      "Gmail",
      "en",
      {
        TextBody: `${TWO_PARAGRAPHS}\n\nOn Sat, 28 Nov 2026 at 10:00, Heirloom <hello@heirloom.example> wrote:\n> What was your childhood home like?\n> Record your answer: https://heirloom.example/record/x\n`,
      },
      TWO_PARAGRAPHS,
    ],
    [
      "Apple Mail",
      "en",
      {
        TextBody: `${TWO_PARAGRAPHS}\n\nSent from my iPhone\n\n> On 28 Nov 2026, at 10:00, Heirloom <hello@heirloom.example> wrote:\n>\n> What was your childhood home like?\n`,
      },
      TWO_PARAGRAPHS,
    ],
    [
      "Outlook",
      "en",
      {
        TextBody: `${TWO_PARAGRAPHS}\n\nGet Outlook for Android\n________________________________\nFrom: Heirloom <hello@heirloom.example>\nSent: Saturday, November 28, 2026 10:00 AM\nTo: kamala@example.com\nSubject: A question from Priya\n\nWhat was your childhood home like?\n`,
      },
      TWO_PARAGRAPHS,
    ],
    [
      "Gmail in Hindi",
      "hi",
      {
        TextBody:
          "जब मैं छोटी थी, हम नदी के पास रहते थे।\n\nहर शाम हम सब तैरते थे।\n\nशनि, 28 नव॰ 2026 को 10:00 am पर Heirloom <hello@heirloom.example> ने लिखा:\n> आपका बचपन का घर कैसा था?\n",
      },
      "जब मैं छोटी थी, हम नदी के पास रहते थे।\n\nहर शाम हम सब तैरते थे।",
    ],
    [
      "Apple Mail in Hindi",
      "hi",
      {
        TextBody:
          "हमारे घर में एक गाय थी।\n\nमेरे iPhone से भेजा गया\n\n28 नव॰ 2026 को 10:00 am पर, Heirloom <hello@heirloom.example> ने लिखा:\n\nआपका बचपन का घर कैसा था?\n",
      },
      "हमारे घर में एक गाय थी।",
    ],
    [
      "HTML only",
      "en",
      {
        HtmlBody: `<html><body><div dir="ltr">When I was a girl we lived by the river.<br></div><div dir="ltr"><br></div><div>We swam every evening, all of us.</div><br><div class="gmail_quote"><div class="gmail_attr">On Sat, 28 Nov 2026 at 10:00, Heirloom &lt;hello@heirloom.example&gt; wrote:<br></div><blockquote class="gmail_quote">What was your childhood home like?</blockquote></div></body></html>`,
      },
      TWO_PARAGRAPHS,
    ],
  ];

  it.each(shapes)(
    "%s: her words are the answer, as she wrote them, and she is thanked",
    async (_, lang, body, words) => {
      const asked = await askedByEmail(lang);
      const response = await post(inbound(asked, body));
      expect(response.status).toBe(200);
      const [answer] = await answerOf(asked.promptId);
      expect(answer.written_text).toBe(words);
      expect(answer.transcript).toBe(words);
      expect(answer.transcript_status).toBe("done");
      expect(answer.storage_key).toBeNull();
      // The book may print it (its words are the transcript); the export, which holds recordings, not yet.
      const scope = { kind: "storyteller" as const, storytellerId: asked.storytellerId };
      expect((await keptAnswers(database.db, asked.owner.id, scope))?.map((a) => a.transcript)).toEqual([words]);
      expect(await keptRecordings(database.db, asked.owner.id, scope)).toEqual([]);
      // In her own account's My Stories too: her words, no player.
      const her = await createUser(database.db, { email: asked.email });
      const { stories } = await getMyStories(database.db, her);
      expect(stories.map((s) => [s.hasRecording, s.words.transcript])).toEqual([[false, words]]);
      const [thanks] = await toldHer(asked.email);
      expect(thanks.subject).toBe(
        lang === "hi" ? "धन्यवाद — Priya इसे जल्द ही पढ़ेंगे" : "Thank you — Priya will read it soon",
      );
    },
  );

  it("the same MessageID twice, and a second reply, make one answer with both replies' words", async () => {
    const asked = await askedByEmail();
    const first = inbound(asked, { StrippedTextReply: "We had a cow named Lakshmi." });
    expect((await post(first)).status).toBe(200);
    expect(await (await post(first)).json()).toEqual({ outcome: "duplicate" });
    expect(await (await post(inbound(asked, { StrippedTextReply: "She gave the sweetest milk." }))).json()).toEqual({
      outcome: "added",
    });
    const answers = await answerOf(asked.promptId);
    expect(answers).toHaveLength(1);
    expect(answers[0].transcript).toBe("We had a cow named Lakshmi.\n\nShe gave the sweetest milk.");
    expect((await toldHer(asked.email)).map((m) => m.subject)).toHaveLength(2);
  });

  it("a reply from another address is held for the owner, never attached", async () => {
    const asked = await askedByEmail();
    const response = await post(
      inbound(asked, { StrippedTextReply: "I am her neighbour.", From: "someone@else.example" }),
    );
    expect(await response.json()).toEqual({ outcome: "held" });
    expect(await answerOf(asked.promptId)).toEqual([]);
    const held = await database.db
      .selectFrom("email_replies")
      .select(["status", "held_text", "from_address"])
      .where("prompt_id", "=", asked.promptId)
      .execute();
    expect(held).toEqual([{ status: "held", held_text: "I am her neighbour.", from_address: "someone@else.example" }]);
  });

  it("an M4A voice memo is the answer's recording, her text beside it", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "heirloom-memo-"));
    try {
      const memo = path.join(folder, "memo.m4a");
      await promisify(execFile)("ffmpeg", [
        "-loglevel",
        "error",
        "-f",
        "lavfi",
        "-i",
        "sine=frequency=440:duration=2",
        "-c:a",
        "aac",
        memo,
      ]);
      const content = await readFile(memo);
      const asked = await askedByEmail();
      const response = await post(
        inbound(asked, { StrippedTextReply: "Listen to this." }, [
          { Name: "New Recording.m4a", Content: content.toString("base64"), ContentType: "audio/x-m4a" },
        ]),
      );
      expect(await response.json()).toEqual({ outcome: "answered" });
      const [answer] = await answerOf(asked.promptId);
      expect(answer.content_type).toBe("audio/mp4");
      expect(answer.duration_ms).toBeGreaterThan(1500);
      expect(answer.written_text).toBe("Listen to this.");
      expect(await context().storage.head(answer.storage_key!)).not.toBeNull();
      // The family reads what she wrote beside her recording.
      const { items } = await getTimelinePage(database.db, asked.owner);
      expect(items[0].words.written_beside).toBe("Listen to this.");
      const jobs = await sql<{ task: string }>`select task_identifier as task from graphile_worker.jobs`.execute(
        database.db,
      );
      expect(jobs.rows.map((j) => j.task)).toEqual(expect.arrayContaining(["answer__transcode", "answer__transcribe"]));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("a file too large, and a text file named .jpg, are refused and she is told why", async () => {
    const asked = await askedByEmail();
    const big = await post(
      inbound(asked, {}, [
        { Name: "memo.m4a", Content: "AAAA", ContentType: "audio/mp4", ContentLength: 40 * 1024 * 1024 },
      ]),
    );
    expect(await big.json()).toEqual({ outcome: "refused" });
    const fake = await post(
      inbound(asked, {}, [
        { Name: "photo.jpg", Content: Buffer.from("just some words").toString("base64"), ContentType: "image/jpeg" },
      ]),
    );
    expect(await fake.json()).toEqual({ outcome: "refused" });
    expect(await answerOf(asked.promptId)).toEqual([]);
    expect((await toldHer(asked.email)).map((m) => m.subject)).toEqual([
      "Your recording is too large",
      "We could not keep your attachment",
    ]);
  });

  it("a reply to a deleted question: she is told it was deleted", async () => {
    const asked = await askedByEmail();
    await database.db.deleteFrom("prompts").where("id", "=", asked.promptId).execute();
    expect(await (await post(inbound(asked, { StrippedTextReply: "Here it is." }))).json()).toEqual({
      outcome: "refused",
    });
    expect((await toldHer(asked.email)).map((m) => m.subject)).toEqual(["This question is no longer asked"]);
  });

  it("refuses unauthenticated, oversize and NUL-byte posts with a 4xx", async () => {
    const asked = await askedByEmail();
    const body = inbound(asked, { StrippedTextReply: "Hello" });
    expect((await post(body, null)).status).toBe(401);
    expect((await post(body, basic("wrong-secret-1234567890"))).status).toBe(401);
    // Straight to the route: refused unread, the body's rest is never taken off the socket.
    const oversize = new Request(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: basic(SECRET) },
      body: JSON.stringify({ ...body, TextBody: "x".repeat(37 * 1024 * 1024) }),
    });
    const refused = await Promise.resolve(
      action({ request: oversize, context: context(), params: {}, ...routeArgs }),
    ).catch((thrown: Response) => thrown);
    expect(refused.status).toBe(413);
    expect((await post({ ...body, MessageID: "abc\u0000def" })).status).toBe(400);
    expect((await post({ ...body, From: "kamala\u0000@example.com" })).status).toBe(400);
    expect(await answerOf(asked.promptId)).toEqual([]);
  });
});
