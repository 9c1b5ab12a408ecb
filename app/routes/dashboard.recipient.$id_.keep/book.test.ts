import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runOnce } from "graphile-worker";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { getServerT } from "~/i18n/i18next.server";
import { loader as timelineLoader } from "~/routes/dashboard.timeline/route";
import { loader as downloadLoader } from "~/routes/dashboard_.keep.$id.download";
import { loader as listenPage } from "~/routes/l.$token";
import { loader as listenAudio } from "~/routes/l.$token.audio";
import { action as reportTimeZone } from "~/routes/resources.time-zone";
import { createTaskList } from "../../../jobs/task-list";
import { silentWav } from "../../../tests/audio-fixtures";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { get, outcome, post, signedInUser } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import { createAnswer, createPrompt, createStoryteller } from "../../../tests/factories";
import { waitForJobsToSettle } from "../../../tests/jobs";
import { m4aAudio, pngPhoto, run } from "../../../tests/keep-fixtures";
import { action, loader } from "./route";

const database = useTestDatabase();
const scratch: string[] = [];

afterAll(async () => {
  await rm(path.join(os.tmpdir(), `heirloom-test-files-${database.name}`), { recursive: true, force: true });
  for (const directory of scratch) await rm(directory, { recursive: true, force: true });
});

type User = Awaited<ReturnType<typeof signedInUser>>;

const QUESTIONS = ["बचपन में आपका सबसे प्रिय त्योहार कौन सा था?", "आपकी शादी के दिन क्या हुआ था?"];
const TRANSCRIPTS = [
  "दिवाली पर हम मिट्टी के दिये जलाते थे और माँ खीर बनाती थीं।",
  "उस दिन बारिश हुई थी, फिर भी पूरा गाँव आया था।",
];

async function family() {
  const context = makeTestContext(database);
  // The owner reads English; the book is in the Storyteller's Hindi, frame and all.
  const owner = await signedInUser(database, { language: "en", first_name: "आशा" });
  const photoKey = `profile/${owner.id}/photo.png`;
  await context.storage.put(photoKey, await pngPhoto(), "image/png");
  const st = await createStoryteller(database.db, {
    ownerId: owner.id,
    firstName: "कमला",
    nickname: "दादी कमला",
    language: "hi",
    timeZone: "Asia/Kolkata",
    profilePicKey: photoKey,
    prompts: [],
  });
  const playable = await m4aAudio(1);
  const answers = [];
  for (const [index, text] of QUESTIONS.entries()) {
    const prompt = await createPrompt(database.db, {
      storytellerId: st.id,
      text,
      sentAt: new Date(),
      createdBy: owner.id,
    });
    answers.push(
      await createAnswer(database.db, {
        storytellerId: st.id,
        promptId: prompt.id,
        storage: context.storage,
        audio: silentWav(1, 16),
        contentType: "audio/wav",
        playable: { audio: playable },
        transcript: TRANSCRIPTS[index],
        transcriptStatus: "done",
      }),
    );
  }
  const secret = await createAnswer(database.db, {
    storytellerId: st.id,
    storage: context.storage,
    isPrivate: true,
    recordedForEmail: st.email,
    transcript: "यह सिर्फ़ मेरे लिए है।",
    transcriptStatus: "done",
  });
  return { context, owner, st, answers, secret };
}

const act = (user: User, storytellerId: string, fields: Record<string, string | string[]>, env = {}) =>
  outcome(() =>
    action({
      request: post(user.jar, `/dashboard/recipient/${storytellerId}/keep`, fields),
      context: makeTestContext(database, env),
      params: { id: storytellerId },
      ...routeArgs,
    }),
  );

async function runJobs(env: Record<string, string> = {}) {
  await runOnce({ pgPool: database.pool, taskList: createTaskList(makeTestContext(database, env)) });
  await waitForJobsToSettle(database.db);
}

const tokenOf = (url: string) => new URL(url).pathname.split("/")[2];
const openListen = (token: string) =>
  outcome(() =>
    listenPage({
      request: new Request(`http://localhost:3000/l/${token}`),
      context: makeTestContext(database),
      params: { token },
      ...routeArgs,
    }),
  );
const openAudio = (token: string) =>
  outcome(() =>
    listenAudio({
      request: new Request(`http://localhost:3000/l/${token}/audio`),
      context: makeTestContext(database),
      params: { token },
      ...routeArgs,
    }),
  );

describe("keepsake book", () => {
  it("prints the chosen answers in order, in correctly ordered Hindi, with QR codes that play until revoked", async () => {
    const { owner, st, answers, secret } = await family();
    const [first, second] = answers;
    // Both ticked (and the private one slipped in by hand), the second placed first.
    const queued = await act(owner, st.id, {
      intent: "book",
      title: "कमला की कहानियाँ",
      paper: "a4",
      cover: "storyteller",
      language: "hi",
      include: [first.id, second.id, secret.id],
      [`position-${first.id}`]: "2",
      [`position-${second.id}`]: "1",
      [`position-${secret.id}`]: "3",
    });
    expect(queued).toMatchObject({ status: 302, location: `/dashboard/recipient/${st.id}/keep` });
    const keepsake = await database.db
      .selectFrom("keepsakes")
      .selectAll()
      .where("user_id", "=", owner.id)
      .executeTakeFirstOrThrow();
    expect(keepsake.options).toMatchObject({ answerIds: [second.id, first.id] });

    await runJobs();
    const built = await database.db
      .selectFrom("keepsakes")
      .selectAll()
      .where("id", "=", keepsake.id)
      .executeTakeFirstOrThrow();
    expect(built).toMatchObject({ status: "ready", progress: 100, error: null });
    const note = await database.db
      .selectFrom("notifications")
      .select("type")
      .where("user_id", "=", owner.id)
      .executeTakeFirstOrThrow();
    expect(note.type).toBe("book_ready");

    const response = (await downloadLoader({
      request: get(owner.jar, `/dashboard/keep/${keepsake.id}/download`),
      context: makeTestContext(database),
      params: { id: keepsake.id },
      ...routeArgs,
    })) as Response;
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    // The file is named as the book is titled.
    const day = keepsake.created_at.toISOString().slice(0, 10);
    expect(response.headers.get("Content-Disposition")).toContain(
      `filename*=UTF-8''${encodeURIComponent(`कमला-की-कहानियाँ-${day}.pdf`)}`,
    );
    const directory = await mkdtemp(path.join(os.tmpdir(), "keep-book-"));
    scratch.push(directory);
    const pdf = path.join(directory, "book.pdf");
    await writeFile(pdf, new Uint8Array(await response.arrayBuffer()));

    // The text copies out as written: every Hindi letter and vowel sign in its logical order.
    const { stdout: text } = await run("pdftotext", ["-enc", "UTF-8", pdf, "-"]);
    const flat = text.replace(/\s+/g, " ");
    expect(flat).toContain("कमला की कहानियाँ");
    for (const words of [...QUESTIONS, ...TRANSCRIPTS]) expect(flat).toContain(words);
    expect(flat).not.toContain("यह सिर्फ़ मेरे लिए है");
    // The cover names her as the family does, and every word around the answers is Hindi.
    expect(flat).toContain("दादी कमला की ज़ुबानी");
    // (The QR code's narrow caption may wrap inside a word: compared without spaces.)
    expect(flat.replace(/ /g, "")).toContain("दादीकमलाकीआवाज़मेंसुननेकेलिएस्कैनकरें");
    for (const hindi of ["विषय-सूची", "ने पूछा", "को जवाब दिया"]) expect(flat).toContain(hindi);
    for (const english of ["Told by", "Asked by", "Scan to hear", "Contents", "Answered on"])
      expect(flat).not.toContain(english);
    // The chosen order: the second answer's page comes first (after the contents, which list both).
    expect(flat.indexOf(TRANSCRIPTS[1])).toBeLessThan(flat.indexOf(TRANSCRIPTS[0]));
    const { stdout: info } = await run("pdfinfo", [pdf]);
    expect(info).toMatch(/Page size:.*\(A4\)/);

    // The answers (flowing from page 3, after the cover and contents) each carry a QR code for a
    // listen link; both may share a page, where zbarimg reads codes in no set order.
    await run("pdftoppm", ["-r", "150", "-png", "-f", "3", pdf, path.join(directory, "page")]);
    const pages = (await readdir(directory)).filter((name) => name.endsWith(".png")).sort();
    const urls: string[] = [];
    for (const page of pages) {
      const { stdout } = await run("zbarimg", ["--quiet", "--raw", path.join(directory, page)]);
      urls.push(...stdout.trim().split("\n").filter(Boolean));
    }
    expect(urls).toHaveLength(2);
    for (const url of urls) expect(url).toMatch(/^http:\/\/localhost:3000\/l\/[^/]+$/);
    const opened = await Promise.all(urls.map((url) => openListen(tokenOf(url))));
    for (const page of opened) expect(page).toMatchObject({ status: 200, data: { kind: "answer", firstName: "कमला" } });
    const promptOf = (index: number) => (opened[index].data as { prompt: string }).prompt;
    expect(urls.map((_, index) => promptOf(index)).sort()).toEqual([...QUESTIONS].sort());
    const secondUrl = urls[urls.findIndex((_, index) => promptOf(index) === QUESTIONS[1])];
    const firstUrl = urls[urls.findIndex((_, index) => promptOf(index) === QUESTIONS[0])];
    const audio = await openAudio(tokenOf(firstUrl));
    expect(audio.status).toBe(200);

    // The links are listed on the page; stopping one ends its code, and only that one.
    const listed = (await loader({
      request: get(owner.jar, `/dashboard/recipient/${st.id}/keep`),
      context: makeTestContext(database),
      params: { id: st.id },
      ...routeArgs,
    })) as { links: { id: string; question: string }[] };
    expect(listed.links.map((link) => link.question).sort()).toEqual([...QUESTIONS].sort());
    const stopped = listed.links.find((link) => link.question === QUESTIONS[1])!;
    expect(await act(owner, st.id, { intent: "revoke-link", linkId: stopped.id })).toMatchObject({ status: 302 });
    const gone = await openListen(tokenOf(secondUrl));
    expect(gone).toMatchObject({ status: 404, data: { kind: "gone" } });
    expect((await openAudio(tokenOf(secondUrl))).status).toBe(404);
    expect((await openListen(tokenOf(firstUrl))).status).toBe(200);
  });

  it("puts the nickname and an uploaded photo on the cover, flows the answers and numbers the contents", async () => {
    const context = makeTestContext(database);
    const owner = await signedInUser(database, { language: "en", first_name: "Priya" });
    const st = await createStoryteller(database.db, {
      ownerId: owner.id,
      firstName: "Rose",
      nickname: "Grandma Rose",
      language: "en",
      timeZone: "Europe/London",
      prompts: [],
    });
    const long = Array.from(
      { length: 40 },
      (_, i) => `Paragraph ${i + 1} of the farm, the orchard and the long dry summer.`,
    );
    const stories = [
      { question: "Where did you grow up?", words: "On a farm by the river." },
      { question: "Who was your best friend?", words: "Margaret, from the next farm." },
      { question: "What was the farm like?", words: long.join("\n\n") },
      { question: "How did you meet Grandpa?", words: "At a dance in the village hall." },
    ];
    const ids: string[] = [];
    for (const story of stories) {
      const prompt = await createPrompt(database.db, {
        storytellerId: st.id,
        text: story.question,
        sentAt: new Date(),
        createdBy: owner.id,
      });
      const answer = await createAnswer(database.db, {
        storytellerId: st.id,
        promptId: prompt.id,
        storage: context.storage,
        transcript: story.words,
        transcriptStatus: "done",
      });
      ids.push(answer.id);
    }

    // The cover photo: a plain multipart post of the keep page; a file that is no image is refused there.
    const upload = (bytes: Uint8Array, name: string, jar = owner.jar) => {
      const body = new FormData();
      body.set("photo", new File([bytes as Uint8Array<ArrayBuffer>], name));
      return outcome(() =>
        action({
          request: new Request(`http://localhost:3000/dashboard/recipient/${st.id}/keep`, {
            method: "POST",
            headers: { Cookie: jar.header(), "Sec-Fetch-Site": "same-origin" },
            body,
          }),
          context: makeTestContext(database),
          params: { id: st.id },
          ...routeArgs,
        }),
      );
    };
    // Someone who may not keep her books is turned away before the photo is read or stored.
    const stranger = await signedInUser(database);
    const keysBefore = await database.db
      .selectFrom("storytellers")
      .select("book_cover_key")
      .where("id", "=", st.id)
      .executeTakeFirstOrThrow();
    expect(await upload(await pngPhoto(), "cover.png", stranger.jar)).toMatchObject({ status: 404 });
    expect(
      await database.db
        .selectFrom("storytellers")
        .select("book_cover_key")
        .where("id", "=", st.id)
        .executeTakeFirstOrThrow(),
    ).toEqual(keysBefore);
    const refused = await upload(new TextEncoder().encode("not a photo"), "cover.jpg");
    expect(refused).toMatchObject({ status: 400, data: { coverError: "keep:cover.notImage" } });
    expect(await upload(await pngPhoto(), "cover.png")).toMatchObject({ status: 302 });
    const page = (await loader({
      request: get(owner.jar, `/dashboard/recipient/${st.id}/keep`),
      context: makeTestContext(database),
      params: { id: st.id },
      ...routeArgs,
    })) as { storyteller: { name: string; hasCover: boolean } };
    expect(page.storyteller).toMatchObject({ name: "Grandma Rose", hasCover: true });

    const queued = await act(owner, st.id, {
      intent: "book",
      title: "The stories of Grandma Rose",
      paper: "letter",
      cover: "uploaded",
      language: "en",
      include: ids,
    });
    expect(queued).toMatchObject({ status: 302 });
    await runJobs();
    const keepsake = await database.db
      .selectFrom("keepsakes")
      .select(["status", "storage_key"])
      .where("user_id", "=", owner.id)
      .executeTakeFirstOrThrow();
    expect(keepsake.status).toBe("ready");
    const directory = await mkdtemp(path.join(os.tmpdir(), "keep-book-"));
    scratch.push(directory);
    const pdf = path.join(directory, "book.pdf");
    const stored = (await context.storage.get(keepsake.storage_key!))!;
    await writeFile(pdf, new Uint8Array(await new Response(stored.body).arrayBuffer()));
    const text = async (page: number) =>
      (await run("pdftotext", ["-enc", "UTF-8", "-f", String(page), "-l", String(page), pdf, "-"])).stdout;

    const cover = await text(1);
    expect(cover).toContain("Told by Grandma Rose");
    expect((await run("pdfimages", ["-list", "-f", "1", "-l", "1", pdf])).stdout).toMatch(/\n\s+1\s+0\s+image/);
    // Contents: each question with the page it starts on, and the question is on that page.
    const contents = (await text(2)).replace(/\s+/g, " ");
    const starts = stories.map(({ question }) => {
      const match = contents.match(new RegExp(`${question.replace("?", "\\?")} (\\d+)`));
      expect(match, question).not.toBeNull();
      return Number(match![1]);
    });
    for (const [index, start] of starts.entries()) expect(await text(start)).toContain(stories[index].question);
    // Flowing: the two short answers share the first answers' page; the long one pushes the last on.
    expect(starts[0]).toBe(3);
    expect(starts[1]).toBe(3);
    // So the keep page promises no page per answer: it says short answers share one.
    const en = await getServerT("en", context, "keep");
    const hi = await getServerT("hi", context, "keep");
    expect(en("book.lead")).toContain("Short answers share a page.");
    expect(en("book.lead")).not.toMatch(/each answer gets a page/i);
    expect(hi("book.lead")).toContain("छोटे जवाब एक ही पन्ने पर आ जाते हैं।");
    expect(starts[3]).toBeGreaterThan(starts[2]);
    expect(Number((await run("pdfinfo", [pdf])).stdout.match(/Pages:\s+(\d+)/)![1])).toBeLessThan(
      2 + stories.length + 2,
    );
  });

  it("prints an emoji in her name with the emoji font, and the day she answered as the reader's Timeline says it", async () => {
    const context = makeTestContext(database);
    const owner = await signedInUser(database, { language: "en", first_name: "Aman" });
    const st = await createStoryteller(database.db, {
      ownerId: owner.id,
      firstName: "Kamla",
      nickname: "Nani 🌸",
      language: "en",
      timeZone: "Asia/Kolkata",
      prompts: [],
    });
    const prompt = await createPrompt(database.db, {
      storytellerId: st.id,
      text: "What did you cook on Diwali?",
      sentAt: new Date(),
      createdBy: owner.id,
    });
    // Answered at 7:00 on the 29th in Kolkata: 20:30 on the 28th for her grandson in New York.
    const answer = await createAnswer(database.db, {
      storytellerId: st.id,
      promptId: prompt.id,
      storage: context.storage,
      transcript: "Kheer, and the sweets my mother taught me.",
      transcriptStatus: "done",
      createdAt: new Date("2026-11-29T01:30:00Z"),
    });
    // His browser tells the account its zone on his first visit; a later report changes nothing.
    const report = (zone: string) =>
      outcome(() =>
        reportTimeZone({
          request: post(owner.jar, "/resources/time-zone", { timeZone: zone }),
          context: makeTestContext(database),
          params: {},
          ...routeArgs,
        }),
      );
    expect(await report("Not/AZone")).toMatchObject({ status: 400 });
    expect(await report("America/New_York")).toMatchObject({ status: 200 });
    expect(await report("Asia/Tokyo")).toMatchObject({ status: 200 });
    const timeline = (await timelineLoader({
      request: get(owner.jar, "/dashboard/timeline"),
      context: makeTestContext(database),
      params: {},
      ...routeArgs,
    })) as { months: { label: string; items: { id: string; dateLabel: string }[] }[] };
    expect(timeline.months.map((month) => month.label)).toEqual(["November 2026"]);
    expect(timeline.months[0].items).toMatchObject([{ id: answer.id, dateLabel: "Nov 28, 2026" }]);
    const queued = await act(owner, st.id, {
      intent: "book",
      title: "The stories of Nani 🌸",
      paper: "a4",
      cover: "none",
      language: "en",
      include: [answer.id],
    });
    expect(queued).toMatchObject({ status: 302 });
    await runJobs();
    const keepsake = await database.db
      .selectFrom("keepsakes")
      .select(["status", "storage_key"])
      .where("user_id", "=", owner.id)
      .executeTakeFirstOrThrow();
    expect(keepsake.status).toBe("ready");
    const directory = await mkdtemp(path.join(os.tmpdir(), "keep-book-"));
    scratch.push(directory);
    const pdf = path.join(directory, "book.pdf");
    const stored = (await context.storage.get(keepsake.storage_key!))!;
    await writeFile(pdf, new Uint8Array(await new Response(stored.body).arrayBuffer()));
    // The flower is drawn from the colour emoji font: Chromium embeds its bitmaps as a Type 3 font,
    // where a missing glyph would be a text font's empty box, in black ink.
    const { stdout: cover } = await run("pdftotext", ["-enc", "UTF-8", "-f", "1", "-l", "1", pdf, "-"]);
    expect(cover).toContain("Told by Nani");
    // The book dates the answer on the day his Timeline does.
    const { stdout: whole } = await run("pdftotext", ["-enc", "UTF-8", pdf, "-"]);
    expect(whole.replace(/\s+/g, " ")).toContain("Answered on November 28, 2026");
    const { stdout: fonts } = await run("pdffonts", ["-f", "1", "-l", "1", pdf]);
    expect(fonts).toMatch(/Type 3/);
    await run("pdftoppm", [
      "-r",
      "50",
      "-png",
      "-f",
      "1",
      "-l",
      "1",
      "-singlefile",
      pdf,
      path.join(directory, "cover"),
    ]);
    const { data } = await sharp(path.join(directory, "cover.png")).raw().toBuffer({ resolveWithObject: true });
    let coloured = 0;
    for (let i = 0; i + 2 < data.length; i += 3) {
      const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured++;
    }
    expect(coloured).toBeGreaterThan(20);
  });

  it("says so instead of queueing, or fails the book plainly, when there is no Chromium", async () => {
    const { owner, st, answers } = await family();
    const missing = { CHROMIUM_PATH: "/nonexistent/chromium" };
    const page = (await loader({
      request: get(owner.jar, `/dashboard/recipient/${st.id}/keep`),
      context: makeTestContext(database, missing),
      params: { id: st.id },
      ...routeArgs,
    })) as { canPrint: boolean };
    expect(page.canPrint).toBe(false);
    const fields = {
      intent: "book",
      title: "किताब",
      paper: "letter",
      cover: "none",
      language: "hi",
      include: [answers[0].id],
    };
    expect(await act(owner, st.id, fields, missing)).toMatchObject({ status: 302 });
    expect(await database.db.selectFrom("keepsakes").select("id").where("user_id", "=", owner.id).execute()).toEqual(
      [],
    );

    // Chromium gone after the book was asked for: the job marks it, the page explains it.
    expect(await act(owner, st.id, fields)).toMatchObject({ status: 302 });
    await runJobs(missing);
    const book = await database.db
      .selectFrom("keepsakes")
      .selectAll()
      .where("user_id", "=", owner.id)
      .executeTakeFirstOrThrow();
    expect(book).toMatchObject({ status: "failed", error: "no-chromium", storage_key: null });
  });

  it("refuses a book with nothing ticked or no title, on the field concerned", async () => {
    const { owner, st } = await family();
    const refused = await act(owner, st.id, { intent: "book", title: " ", paper: "a4", cover: "none" });
    expect(refused.status).toBe(400);
    expect((refused.data as { result: { error: Record<string, string[]> } }).result.error).toMatchObject({
      title: ["keep:book.titleTooShort"],
      include: ["keep:book.pickOne"],
    });
    expect(await database.db.selectFrom("keepsakes").select("id").where("user_id", "=", owner.id).execute()).toEqual(
      [],
    );
  });

  it("refuses a NUL in the title, a paper or cover not offered and an answer id that is not one, on each field", async () => {
    const { owner, st, answers } = await family();
    const refused = await act(owner, st.id, {
      intent: "book",
      title: "Stories\u0000",
      paper: "a3",
      cover: "front",
      include: [answers[0].id, "not-an-answer"],
    });
    expect(refused.status).toBe(400);
    expect((refused.data as { result: { error: Record<string, string[]> } }).result.error).toMatchObject({
      title: ["validation.singleLine"],
      paper: ["keep:book.pickPaper"],
      cover: ["keep:book.pickCover"],
      "include[1]": ["keep:book.answerGone"],
    });
    expect(await database.db.selectFrom("keepsakes").select("id").where("user_id", "=", owner.id).execute()).toEqual(
      [],
    );
  });
});
