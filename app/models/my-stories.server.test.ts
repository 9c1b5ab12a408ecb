import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTestContext } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import {
  createAnswer,
  createPrompt,
  createSelfStoryteller,
  createShareLink,
  createSentEmail,
  createStoryteller,
  createUser,
} from "../../tests/factories";
import { jobsFor } from "../../tests/jobs";
import { acceptRecording } from "./answer.server";
import {
  answerablePrompt,
  deleteMyStory,
  ensureSelfStoryteller,
  getMyStories,
  setStoryPrivacy,
  startOwnStory,
} from "./my-stories.server";
import { getStorytellerView } from "./prompt.server";
import { getSidebarCounts } from "./sidebar.server";
import { getBoard, getOwnedStoryteller, getVisibleStoryteller, listStorytellerCards } from "./storyteller.server";
import { getProfileCounts } from "./user.server";

const database = useTestDatabase();
const context = () => makeTestContext(database);
const webm = readFileSync(path.resolve("tests/fixtures/recording-3s.webm"));
const folders: string[] = [];

afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
  await rm(path.join(os.tmpdir(), `heirloom-test-files-${database.name}`), { recursive: true, force: true });
});

/** A copy of the 3-second WebM fixture, as an upload leaves it on disk. */
async function uploadedFile() {
  const folder = await mkdtemp(path.join(os.tmpdir(), "heirloom-mystories-test-"));
  folders.push(folder);
  const file = path.join(folder, "answer.webm");
  await writeFile(file, webm);
  return file;
}

const selfRows = (ownerId: string) =>
  database.db
    .selectFrom("storytellers")
    .selectAll()
    .where("owner_id", "=", ownerId)
    .where("is_self", "=", true)
    .execute();
const promptOf = (id: string) => database.db.selectFrom("prompts").selectAll().where("id", "=", id).executeTakeFirst();
const answerOf = (id: string) => database.db.selectFrom("answers").selectAll().where("id", "=", id).executeTakeFirst();
const libraryQuestion = () =>
  database.db
    .selectFrom("library_prompts")
    .select(["id", "text_en", "text_hi"])
    .orderBy("id")
    .executeTakeFirstOrThrow();

/** Ravi asks Kamla, whose address is the user's: a sent question, and one she answered. */
async function askedOfMe(me: { email: string }) {
  const ravi = await createUser(database.db, { first_name: "Ravi" });
  const storyteller = await createStoryteller(database.db, {
    ownerId: ravi.id,
    email: me.email.toUpperCase(), // the address as the owner typed it
    prompts: [{ text: "Tell me about your village.", sentAt: new Date() }],
  });
  const answered = await createPrompt(database.db, {
    storytellerId: storyteller.id,
    text: "What did you sing at weddings?",
    sentAt: new Date(),
    createdBy: ravi.id,
  });
  const answer = await createAnswer(database.db, {
    storytellerId: storyteller.id,
    promptId: answered.id,
    recordedForEmail: me.email,
    storage: context().storage,
  });
  // Each question's record link went to that address: what makes them mine (recordLinkAddress).
  for (const prompt of [storyteller.prompts[0], answered])
    await createSentEmail(database.db, { promptId: prompt.id, to: me.email.toUpperCase() });
  return { ravi, storyteller, open: storyteller.prompts[0], answered, answer };
}

describe("the is_self Storyteller (decision 017)", () => {
  it("is made once, lazily, even when several first stories start at the same moment", async () => {
    const me = await createUser(database.db, { language: "hi" });
    expect(await selfRows(me.id)).toEqual([]);
    const ids = await Promise.all(Array.from({ length: 6 }, () => ensureSelfStoryteller(database.db, me)));
    const started = await Promise.all(
      ["My first bicycle", "The monsoon of 1971", "How we came to Delhi"].map((title) =>
        startOwnStory(database.db, me, { title }),
      ),
    );
    const rows = await selfRows(me.id);
    expect(rows).toHaveLength(1);
    expect(new Set(ids)).toEqual(new Set([rows[0].id]));
    expect(started.every((s) => s.ok)).toBe(true);
    // It is the user, reachable only in name: their address (so their answers are theirs), no schedule.
    expect(rows[0]).toMatchObject({
      email: me.email.toLowerCase(),
      delivery_method: "email",
      language: "hi",
      time_zone: "Asia/Kolkata",
      first_name: me.first_name,
    });
    const schedules = await database.db
      .selectFrom("schedules")
      .select("storyteller_id")
      .where("storyteller_id", "=", rows[0].id)
      .execute();
    expect(schedules).toEqual([]);
  });
});

describe("Record a story", () => {
  it("asks a library question in the user's language, or their own title, at once", async () => {
    const me = await createUser(database.db, { language: "hi" });
    const question = await libraryQuestion();
    const fromLibrary = await startOwnStory(database.db, me, { libraryPromptId: question.id });
    const ownTitle = await startOwnStory(database.db, me, { title: "The day I met your grandfather" });
    if (!fromLibrary.ok || !ownTitle.ok) throw new Error("refused");
    expect(await promptOf(fromLibrary.promptId)).toMatchObject({
      text: question.text_hi,
      library_prompt_id: question.id,
      is_custom: false,
      created_by: me.id,
      sent_at: expect.any(Date),
    });
    expect(await promptOf(ownTitle.promptId)).toMatchObject({
      text: "The day I met your grandfather",
      library_prompt_id: null,
      is_custom: true,
    });
  });

  it("refuses a library question that does not exist, beside its field, writing nothing", async () => {
    const me = await createUser(database.db);
    expect(await startOwnStory(database.db, me, { libraryPromptId: 987654 })).toEqual({
      ok: false,
      fieldErrors: { libraryPromptId: ["stories:record.unknownQuestion"] },
    });
    expect(await selfRows(me.id)).toEqual([]);
  });

  it("reuses the same question while it is not recorded (a double click), and asks it anew once it is", async () => {
    const me = await createUser(database.db);
    const first = await startOwnStory(database.db, me, { title: "My first bicycle" });
    const again = await startOwnStory(database.db, me, { title: "my first BICYCLE" });
    expect(again).toEqual(first);
    if (!first.ok) throw new Error("refused");
    await acceptRecording(context(), { promptId: first.promptId, file: await uploadedFile(), isPrivate: false });
    const later = await startOwnStory(database.db, me, { title: "My first bicycle" });
    expect(later.ok && later.promptId).not.toBe(first.promptId);
  });

  it("becomes an answer through the record page's acceptRecording: jobs queued, no one notified, the user its Storyteller", async () => {
    const me = await createUser(database.db);
    const started = await startOwnStory(database.db, me, { title: "My first bicycle" });
    if (!started.ok) throw new Error("refused");
    const accepted = await acceptRecording(context(), {
      promptId: started.promptId,
      file: await uploadedFile(),
      isPrivate: true,
    });
    if (!accepted.ok) throw new Error(accepted.problem);
    expect(await answerOf(accepted.answerId)).toMatchObject({
      is_private: true,
      recorded_for_email: me.email.toLowerCase(),
      content_type: "audio/webm",
    });
    expect((await jobsFor(database.db, "answer__transcode")).map((j) => j.payload)).toContainEqual({
      answerId: accepted.answerId,
    });
    expect((await jobsFor(database.db, "answer__transcribe")).map((j) => j.payload)).toContainEqual({
      answerId: accepted.answerId,
    });
    const notes = await database.db.selectFrom("notifications").select("type").where("user_id", "=", me.id).execute();
    expect(notes).toEqual([]);
  });
});

describe("which prompts a user may answer from My Stories", () => {
  it("their own stories, and questions sent to their address; nobody else's", async () => {
    const me = await createUser(database.db);
    const { ravi, storyteller, open, answered } = await askedOfMe(me);
    const own = await startOwnStory(database.db, me, { title: "My first bicycle" });
    if (!own.ok) throw new Error("refused");

    expect(await answerablePrompt(database.db, me, own.promptId)).toMatchObject({ own: true, answer: null });
    expect(await answerablePrompt(database.db, me, open.id)).toMatchObject({
      own: false,
      askerName: "Ravi",
      answer: null,
    });
    expect(await answerablePrompt(database.db, me, answered.id)).toMatchObject({ answer: { isPrivate: false } });

    // Ravi may not answer my story, nor his own Storyteller's question (it is not addressed to him).
    expect(await answerablePrompt(database.db, ravi, own.promptId)).toBeNull();
    expect(await answerablePrompt(database.db, ravi, open.id)).toBeNull();
    // A question not sent yet has nothing to answer.
    const unsent = await createPrompt(database.db, { storytellerId: storyteller.id, text: "Not yet sent?" });
    expect(await answerablePrompt(database.db, me, unsent.id)).toBeNull();
    expect(await answerablePrompt(database.db, me, "not-a-uuid")).toBeNull();
  });

  it("not someone else's is_self row, even if its address is later the user's", async () => {
    const me = await createUser(database.db);
    const other = await createUser(database.db);
    const theirs = await createSelfStoryteller(database.db, { ...other, email: me.email });
    const prompt = await createPrompt(database.db, { storytellerId: theirs.id, sentAt: new Date() });
    expect(await answerablePrompt(database.db, me, prompt.id)).toBeNull();
  });
});

describe("the My Stories list", () => {
  it("has my stories and answers (private too), my unrecorded stories, and the questions waiting for me", async () => {
    const me = await createUser(database.db);
    const { open, answered, storyteller } = await askedOfMe(me);
    const skipped = await createPrompt(database.db, {
      storytellerId: storyteller.id,
      text: "A question I skipped?",
      sentAt: new Date(),
      skippedAt: new Date(),
    });
    const again = await createPrompt(database.db, {
      storytellerId: storyteller.id,
      text: "Please say it again?",
      sentAt: new Date(),
      rerecordRequestedAt: new Date(),
    });
    for (const prompt of [skipped, again]) await createSentEmail(database.db, { promptId: prompt.id, to: me.email });
    await createAnswer(database.db, { storytellerId: storyteller.id, promptId: again.id, recordedForEmail: me.email });
    const recorded = await startOwnStory(database.db, me, { title: "My first bicycle" });
    const draft = await startOwnStory(database.db, me, { title: "The monsoon of 1971" });
    if (!recorded.ok || !draft.ok) throw new Error("refused");
    await acceptRecording(context(), { promptId: recorded.promptId, file: await uploadedFile(), isPrivate: true });

    const page = await getMyStories(database.db, me);
    expect(page.stories.map((s) => [s.question, s.own, s.isPrivate]).sort()).toEqual([
      ["My first bicycle", true, true],
      ["Please say it again?", false, false],
      ["What did you sing at weddings?", false, false],
    ]);
    expect(page.stories.find((s) => s.promptId === answered.id)).toMatchObject({ askerName: "Ravi" });
    expect(page.drafts).toEqual([{ id: draft.promptId, question: "The monsoon of 1971" }]);
    expect(page.questions.map((q) => [q.id, q.rerecord]).sort()).toEqual(
      [
        [open.id, false],
        [again.id, true],
      ].sort(),
    );
    expect(page.questions.map((q) => q.id)).not.toContain(skipped.id);
    expect((await getSidebarCounts(database.db, me.id)).myStories).toBe(3);
  });
});

describe("the private flag", () => {
  it("is the Storyteller's to change: on (ending share links) and off again; nobody else's", async () => {
    const me = await createUser(database.db);
    const { ravi, answer } = await askedOfMe(me);
    const link = await createShareLink(database.db, { answerId: answer.id, createdBy: ravi.id });

    expect(await setStoryPrivacy(database.db, ravi, answer.id, true)).toBe(false);
    expect(await answerOf(answer.id)).toMatchObject({ is_private: false });

    expect(await setStoryPrivacy(database.db, me, answer.id, true)).toBe(true);
    expect(await answerOf(answer.id)).toMatchObject({ is_private: true });
    const revoked = await database.db
      .selectFrom("share_links")
      .select("revoked_at")
      .where("id", "=", link.id)
      .executeTakeFirstOrThrow();
    expect(revoked.revoked_at).not.toBeNull();

    expect(await setStoryPrivacy(database.db, me, answer.id, false)).toBe(true);
    expect(await answerOf(answer.id)).toMatchObject({ is_private: false });
  });
});

describe("Delete from My Stories", () => {
  it("takes my own story whole: the question, its answer and its recording", async () => {
    const me = await createUser(database.db);
    const started = await startOwnStory(database.db, me, { title: "My first bicycle" });
    if (!started.ok) throw new Error("refused");
    const accepted = await acceptRecording(context(), {
      promptId: started.promptId,
      file: await uploadedFile(),
      isPrivate: false,
    });
    if (!accepted.ok) throw new Error(accepted.problem);
    const { storage_key } = (await answerOf(accepted.answerId))!;
    expect(await context().storage.head(storage_key!)).not.toBeNull();

    expect(await deleteMyStory(context(), me, started.promptId)).toBe("deleted");
    expect(await promptOf(started.promptId)).toBeUndefined();
    expect(await answerOf(accepted.answerId)).toBeUndefined();
    expect(await context().storage.head(storage_key!)).toBeNull();
  });

  it("takes an answer I gave to someone's question, and the question waits for me again", async () => {
    const me = await createUser(database.db);
    const { answered, answer } = await askedOfMe(me);
    expect(await deleteMyStory(context(), me, answered.id)).toBe("deleted");
    expect(await answerOf(answer.id)).toBeUndefined();
    expect(await promptOf(answered.id)).toMatchObject({ id: answered.id });
    expect(await context().storage.head(answer.storage_key!)).toBeNull();
    expect((await getMyStories(database.db, me)).questions.map((q) => q.id)).toContain(answered.id);
  });

  it("is refused to the asker, to strangers, and for a question I have not answered", async () => {
    const me = await createUser(database.db);
    const stranger = await createUser(database.db);
    const { ravi, open, answered, answer } = await askedOfMe(me);
    const mine = await startOwnStory(database.db, me, { title: "My first bicycle" });
    if (!mine.ok) throw new Error("refused");
    for (const [who, promptId] of [
      [ravi, answered.id],
      [stranger, answered.id],
      [stranger, mine.promptId],
      [ravi, mine.promptId],
      [me, open.id],
    ] as const)
      expect(await deleteMyStory(context(), who, promptId)).toBe("not-found");
    expect(await answerOf(answer.id)).toBeDefined();
    expect(await promptOf(mine.promptId)).toBeDefined();
    expect(await promptOf(open.id)).toBeDefined();
  });
});

describe("the is_self Storyteller is never someone the user asks", () => {
  it("is left out of the overview, the board, the sidebar and profile counts, and has no Storyteller pages", async () => {
    const me = await createUser(database.db);
    const nani = await createStoryteller(database.db, { ownerId: me.id, nickname: "Nani" });
    await createAnswer(database.db, { storytellerId: nani.id });
    const started = await startOwnStory(database.db, me, { title: "My first bicycle" });
    if (!started.ok) throw new Error("refused");
    await acceptRecording(context(), { promptId: started.promptId, file: await uploadedFile(), isPrivate: false });
    const [self] = await selfRows(me.id);

    expect((await listStorytellerCards(database.db, me.id)).map((c) => c.id)).toEqual([nani.id]);
    const board = await getBoard(database.db, me.id);
    expect(board.columns.map((c) => c.id)).toEqual([nani.id]);
    expect(board.hiddenColumns).toBe(0);
    expect(await getSidebarCounts(database.db, me.id)).toMatchObject({ storytellers: 1, myStories: 1 });
    expect(await getProfileCounts(database.db, me.id)).toMatchObject({ storytellers: 1, answers: 1 });
    expect(await getStorytellerView(database.db, me.id, self.id)).toBeNull();
    expect(await getOwnedStoryteller(database.db, me.id, self.id)).toBeNull();
    expect(await getVisibleStoryteller(database.db, me.id, self.id)).toBeNull();
    // The real Storyteller is still all there.
    expect(await getStorytellerView(database.db, me.id, nani.id)).not.toBeNull();
  });
});
