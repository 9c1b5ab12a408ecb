import { describe, expect, it } from "vitest";
import { serializeLanguage } from "~/i18n/i18next.server";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { get, outcome, post, replyErrorsOf, signedInUser, toastKeysOf } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import { createAnswer, createGroup, createStoryteller } from "../../../tests/factories";
import { loader as timelineLoader } from "../dashboard.timeline/route";
import { loader as captionsLoader } from "../media.answer.$answerId.captions[.vtt]";
import { action, loader } from "./route";

const database = useTestDatabase();
type User = Awaited<ReturnType<typeof signedInUser>>;
type Page = Awaited<ReturnType<typeof loader>>;

const segments = [
  { start: 0, end: 3.2, text: "I grew up in Lakhnau." },
  { start: 3.2, end: 7.5, text: "My father sold cloth in Aminabad." },
  { start: 9.8, end: 12, text: "We walked to the market every Sunday." },
];

async function family() {
  const owner = await signedInUser(database, { first_name: "Priya" });
  const collaborator = await signedInUser(database, { first_name: "Ravi" });
  const stranger = await signedInUser(database);
  const nani = await createStoryteller(database.db, { ownerId: owner.id, nickname: "Nani" });
  await createGroup(database.db, { ownerId: owner.id, storytellerId: nani.id, collaborators: [collaborator.id] });
  const answer = await createAnswer(database.db, { storytellerId: nani.id, transcriptSegments: segments });
  return { owner, collaborator, stranger, nani, answer };
}

const path = (answerId: string) => `/dashboard/answers/${answerId}/words`;
const open = (user: User, answerId: string) =>
  outcome(() =>
    loader({
      request: get(user.jar, path(answerId)),
      context: makeTestContext(database),
      params: { answerId },
      ...routeArgs,
    }),
  );
const send = (user: User, answerId: string, fields: Record<string, string | string[]>) =>
  outcome(() =>
    action({
      request: post(user.jar, path(answerId), fields),
      context: makeTestContext(database),
      params: { answerId },
      ...routeArgs,
    }),
  );
const row = (id: string) =>
  database.db
    .selectFrom("answers")
    .select([
      "transcript",
      "transcript_segments",
      "machine_transcript",
      "machine_segments",
      "transcript_edited_by",
      "transcript_edited_at",
      "transcript_status",
    ])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

async function words(user: User, answerId: string) {
  const result = await open(user, answerId);
  expect(result.status).toBe(200);
  return (result.data as Page).words;
}

describe("correcting an answer's words", () => {
  it("lets a collaborator correct each segment, keeping the timings and the machine's words, and says who did", async () => {
    const { owner, collaborator, answer } = await family();
    const before = await words(collaborator, answer.id);
    expect(before.segments).toEqual(segments);
    const fixed = ["I grew up in Lucknow.", segments[1].text, "We walked to  the\nmarket every Sunday."];
    const saved = await send(collaborator, answer.id, { intent: "save", version: before.version, segment: fixed });
    expect(saved).toMatchObject({ status: 302, location: "/dashboard/timeline" });

    const stored = await row(answer.id);
    expect(stored.transcript).toBe(
      "I grew up in Lucknow. My father sold cloth in Aminabad. We walked to the market every Sunday.",
    );
    expect(stored.transcript_segments).toEqual([
      { start: 0, end: 3.2, text: "I grew up in Lucknow." },
      segments[1],
      { start: 9.8, end: 12, text: "We walked to the market every Sunday." },
    ]);
    expect(stored.machine_transcript).toBe(segments.map((s) => s.text).join(" "));
    expect(stored.machine_segments).toEqual(segments);
    expect(stored.transcript_edited_by).toBe(collaborator.id);

    const after = await words(owner, answer.id);
    expect(after.corrected?.by).toBe("Ravi");
    expect(after.corrected?.on).toMatch(/^[A-Z][a-z]+ \d{1,2}$/);
    expect(after.heardAgain).toBeNull();
  });

  it("refuses a wrong number of segments, too many words and a stale page with a translated message", async () => {
    const { owner, answer } = await family();
    const { version } = await words(owner, answer.id);
    const twoOnly = await send(owner, answer.id, { intent: "save", version, segment: ["a", "b"] });
    expect(twoOnly.status).toBe(400);
    expect(replyErrorsOf(twoOnly.data)?.[""]).toEqual(["words:errors.wrongSegmentCount"]);

    const long = await send(owner, answer.id, { intent: "save", version, segment: ["x".repeat(2001), "b", "c"] });
    expect(replyErrorsOf(long.data)?.[""]).toEqual(["words:errors.segmentTooLong"]);

    const stale = await send(owner, answer.id, { intent: "save", version: "0".repeat(32), segment: ["a", "b", "c"] });
    expect(replyErrorsOf(stale.data)?.[""]).toEqual(["words:errors.changed"]);

    const nul = await send(owner, answer.id, { intent: "save", version, segment: ["a\u0000", "b", "c"] });
    expect(replyErrorsOf(nul.data)?.[""]).toEqual(["words:errors.invalidCharacters"]);
    expect((await row(answer.id)).transcript_edited_at).toBeNull();
  });

  it("takes the whole text when the words came without timings", async () => {
    const { owner, nani } = await family();
    const plain = await createAnswer(database.db, {
      storytellerId: nani.id,
      transcript: "Mera bachpan Lakhnau mein beeta.",
    });
    const { version } = await words(owner, plain.id);
    const tooLong = await send(owner, plain.id, { intent: "save", version, text: "शब्द ".repeat(5000) });
    expect(replyErrorsOf(tooLong.data)?.[""]).toEqual(["words:errors.tooLong"]);
    expect(await send(owner, plain.id, { intent: "save", version, text: "मेरा बचपन लखनऊ में बीता।" })).toMatchObject({
      status: 302,
    });
    expect(await row(plain.id)).toMatchObject({ transcript: "मेरा बचपन लखनऊ में बीता।", transcript_segments: null });
  });

  it("shows newer machine words beside a correction and never puts them in place unasked", async () => {
    const { owner, answer } = await family();
    const { version } = await words(owner, answer.id);
    const fixed = ["I grew up in Lucknow.", segments[1].text, segments[2].text];
    await send(owner, answer.id, { intent: "save", version, segment: fixed });
    // The engine hears the re-recording: machine_* change, the family's words stay (the contract).
    const again = [{ start: 0, end: 4, text: "I grew up in Lucknow, near the river." }];
    await database.db
      .updateTable("answers")
      .set({ machine_transcript: again[0].text, machine_segments: JSON.stringify(again) })
      .where("id", "=", answer.id)
      .execute();
    const shown = await words(owner, answer.id);
    expect(shown.transcript).toContain("I grew up in Lucknow. My father");
    expect(shown.heardAgain).toEqual({ transcript: again[0].text, segments: again });

    const config = makeTestContext(database).config;
    const toasts = await toastKeysOf(
      () =>
        action({
          request: post(owner.jar, path(answer.id), { intent: "use-heard" }),
          context: makeTestContext(database),
          params: { answerId: answer.id },
          ...routeArgs,
        }),
      config,
    );
    expect(toasts).toEqual(["words:edit.used"]);
    expect(await row(answer.id)).toMatchObject({
      transcript: again[0].text,
      transcript_segments: again,
      transcript_edited_at: null,
    });
    expect((await words(owner, answer.id)).heardAgain).toBeNull();
  });

  it("keeps the family's words when they choose so, and stops asking", async () => {
    const { owner, answer } = await family();
    const { version } = await words(owner, answer.id);
    await send(owner, answer.id, { intent: "save", version, segment: ["Ours.", "Ours.", "Ours."] });
    await database.db
      .updateTable("answers")
      .set({ machine_transcript: "Theirs." })
      .where("id", "=", answer.id)
      .execute();
    expect((await words(owner, answer.id)).heardAgain).not.toBeNull();
    expect(await send(owner, answer.id, { intent: "keep-ours" })).toMatchObject({ status: 302 });
    const after = await words(owner, answer.id);
    expect(after.transcript).toBe("Ours. Ours. Ours.");
    expect(after.heardAgain).toBeNull();
  });

  it("is a 404 for someone outside the family, a removed collaborator and a private answer, page and post alike", async () => {
    const { owner, collaborator, stranger, nani, answer } = await family();
    const { version } = await words(owner, answer.id);
    expect((await open(stranger, answer.id)).status).toBe(404);
    expect((await send(stranger, answer.id, { intent: "save", version, segment: ["a", "b", "c"] })).status).toBe(404);
    await database.db.deleteFrom("group_members").where("user_id", "=", collaborator.id).execute();
    expect((await open(collaborator, answer.id)).status).toBe(404);
    expect((await send(collaborator, answer.id, { intent: "save", version, segment: ["a", "b", "c"] })).status).toBe(
      404,
    );
    const secret = await createAnswer(database.db, { storytellerId: nani.id, isPrivate: true, transcript: "Secret." });
    expect((await open(owner, secret.id)).status).toBe(404);
    expect((await open(owner, "not-a-uuid")).status).toBe(404);
    expect((await row(answer.id)).transcript_edited_at).toBeNull();
  });
});

describe("dates", () => {
  it("writes the day of a correction as the Timeline writes its answer's day, in English and in Hindi", async () => {
    const day = new Date("2026-11-26T12:00:00Z");
    // Each reader's language as its one locale writes it (decision 075): "November 26" beside "Nov 26, 2026".
    const expected = {
      en: { corrected: "November 26", answered: "Nov 26, 2026" },
      hi: {
        corrected: new Intl.DateTimeFormat("hi-IN", { day: "numeric", month: "long", timeZone: "UTC" }).format(day),
        answered: new Intl.DateTimeFormat("hi-IN", { dateStyle: "medium", timeZone: "UTC" }).format(day),
      },
    };
    for (const language of ["en", "hi"] as const) {
      const reader = await signedInUser(database, { first_name: "Asha", language });
      // The page's language is the language cookie's, as the account's switch sets it.
      const cookie = await serializeLanguage(language, { APP_URL: "http://localhost:3000" });
      reader.jar.store(new Response(null, { headers: { "Set-Cookie": cookie } }));
      const nani = await createStoryteller(database.db, { ownerId: reader.id, nickname: "Nani" });
      const answer = await createAnswer(database.db, {
        storytellerId: nani.id,
        transcriptSegments: segments,
        createdAt: day,
      });
      await database.db
        .updateTable("answers")
        .set({ transcript_edited_at: day, transcript_edited_by: reader.id })
        .where("id", "=", answer.id)
        .execute();

      const page = await words(reader, answer.id);
      const timeline = await timelineLoader({
        request: get(reader.jar, "/dashboard/timeline"),
        context: makeTestContext(database),
        params: {},
        ...routeArgs,
      });
      const [item] = timeline.months.flatMap((month) => month.items);
      expect({ words: page.corrected?.on, timeline: item.words.corrected?.on, answered: item.dateLabel }).toEqual({
        words: expected[language].corrected,
        timeline: expected[language].corrected,
        answered: expected[language].answered,
      });
    }
  });
});

describe("captions", () => {
  const captions = (user: User, answerId: string) =>
    captionsLoader({
      request: get(user.jar, `/media/answer/${answerId}/captions.vtt`),
      context: makeTestContext(database),
      params: { answerId },
      ...routeArgs,
    }).catch((thrown: unknown) => thrown as Response);

  it("serves valid WebVTT of the words to those who may hear the answer, and 404 to anyone else", async () => {
    const { owner, collaborator, stranger, nani, answer } = await family();
    const response = await captions(collaborator, answer.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/vtt; charset=utf-8");
    const vtt = await response.text();
    expect(vtt).toBe(
      "WEBVTT\n\n1\n00:00:00.000 --> 00:00:03.200\nI grew up in Lakhnau.\n\n" +
        "2\n00:00:03.200 --> 00:00:07.500\nMy father sold cloth in Aminabad.\n\n" +
        "3\n00:00:09.800 --> 00:00:12.000\nWe walked to the market every Sunday.\n",
    );
    expect((await captions(stranger, answer.id)).status).toBe(404);
    const secret = await createAnswer(database.db, {
      storytellerId: nani.id,
      isPrivate: true,
      transcriptSegments: segments,
    });
    expect((await captions(owner, secret.id)).status).toBe(404);
    const plain = await createAnswer(database.db, { storytellerId: nani.id, transcript: "No timings." });
    expect((await captions(owner, plain.id)).status).toBe(404);
  });
});
