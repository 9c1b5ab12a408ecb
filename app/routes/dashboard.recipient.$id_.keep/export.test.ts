import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { runOnce } from "graphile-worker";
import { chromium } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { loader as downloadLoader } from "~/routes/dashboard_.keep.$id.download";
import { action as exportAction } from "~/routes/dashboard_.keep.export";
import { createTaskList } from "../../../jobs/task-list";
import { silentWav } from "../../../tests/audio-fixtures";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { get, outcome, post, signedInUser } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import { createAnswer, createPrompt, createStoryteller } from "../../../tests/factories";
import { waitForJobsToSettle } from "../../../tests/jobs";
import { filesUnder, m4aAudio, pngPhoto, run } from "../../../tests/keep-fixtures";

const database = useTestDatabase();
const scratch: string[] = [];

afterAll(async () => {
  await rm(path.join(os.tmpdir(), `heirloom-test-files-${database.name}`), { recursive: true, force: true });
  for (const directory of scratch) await rm(directory, { recursive: true, force: true });
});

type User = Awaited<ReturnType<typeof signedInUser>>;

const requestExport = (user: User, fields: Record<string, string>, env: Record<string, string> = {}) =>
  exportAction({
    request: post(user.jar, "/dashboard/keep/export", fields),
    context: makeTestContext(database, env),
    params: {},
    ...routeArgs,
  });

/** A Hindi family: a Storyteller with a photo, two shared answers (one with a real playable copy) and a private one. */
async function family() {
  const context = makeTestContext(database);
  const owner = await signedInUser(database, { language: "hi", first_name: "आशा" });
  const photoKey = `profile/${owner.id}/photo.png`;
  await context.storage.put(photoKey, await pngPhoto(), "image/png");
  const st = await createStoryteller(database.db, {
    ownerId: owner.id,
    firstName: "कमला",
    language: "hi",
    timeZone: "Asia/Kolkata",
    profilePicKey: photoKey,
    prompts: [],
  });
  const first = await createPrompt(database.db, {
    storytellerId: st.id,
    text: "आपका पहला घर कैसा था?",
    sentAt: new Date("2026-03-01T10:00:00Z"),
    createdBy: owner.id,
  });
  const spoken = await createAnswer(database.db, {
    storytellerId: st.id,
    promptId: first.id,
    storage: context.storage,
    audio: silentWav(1, 16),
    contentType: "audio/wav",
    playable: { audio: await m4aAudio(1) },
    // The words with their timings: "हमारा घर नदी के किनारे था।", cut in two.
    transcriptSegments: [
      { start: 0, end: 0.4, text: "हमारा घर" },
      { start: 0.4, end: 1, text: "नदी के किनारे था।" },
    ],
  });
  const second = await createAnswer(database.db, { storytellerId: st.id, storage: context.storage });
  const secret = await createAnswer(database.db, {
    storytellerId: st.id,
    storage: context.storage,
    isPrivate: true,
    recordedForEmail: st.email,
    transcript: "यह सिर्फ़ मेरे लिए है।",
    transcriptStatus: "done",
  });
  return { context, owner, st, spoken, second, secret };
}

async function unzip(body: Uint8Array) {
  const directory = await mkdtemp(path.join(os.tmpdir(), "keep-export-"));
  scratch.push(directory);
  await writeFile(path.join(directory, "export.zip"), body);
  await run("unzip", ["-q", path.join(directory, "export.zip"), "-d", path.join(directory, "out")]);
  const [folder] = (await filesUnder(path.join(directory, "out")))[0].split("/");
  return path.join(directory, "out", folder);
}

type Manifest = {
  answers: { id: string; question: string; private: boolean; files: Record<string, string | null> }[];
  files: { path: string; bytes: number | null }[];
};

describe("export", () => {
  it("streams a zip of exactly its Content-Length whose index.html plays an answer offline from file://", async () => {
    const { owner, st, spoken, second, secret } = await family();
    const response = await requestExport(owner, { scope: "storyteller", storytellerId: st.id });
    expect(response).toBeInstanceOf(Response);
    const zip = response as Response;
    expect(zip.status).toBe(200);
    expect(zip.headers.get("Content-Type")).toBe("application/zip");
    expect(zip.headers.get("Content-Disposition")).toMatch(/^attachment;/);
    const body = new Uint8Array(await zip.arrayBuffer());
    expect(Number(zip.headers.get("Content-Length"))).toBe(body.byteLength);

    const folder = await unzip(body);
    const manifest = JSON.parse(await readFile(path.join(folder, "manifest.json"), "utf8")) as Manifest;
    // The manifest lists every file in the folder (itself included), with each one's true size.
    const onDisk = await filesUnder(folder);
    expect(manifest.files.map((file) => file.path).sort()).toEqual(onDisk);
    for (const file of manifest.files)
      if (file.bytes !== null) expect((await stat(path.join(folder, file.path))).size).toBe(file.bytes);
    // The owner's export holds the shared answers, never the private one.
    expect(manifest.answers.map((answer) => answer.id).sort()).toEqual([spoken.id, second.id].sort());
    expect(JSON.stringify(manifest)).not.toContain(secret.id);
    expect(onDisk).toEqual(
      expect.arrayContaining([
        "index.html",
        "photos/storyteller-1.png",
        "answers/001/original.wav",
        "answers/001/playable.m4a",
        "answers/001/transcript.txt",
        "answers/001/captions.vtt",
        "answers/001/question.txt",
        "answers/002/original.webm",
      ]),
    );
    expect(await readFile(path.join(folder, "answers/001/transcript.txt"), "utf8")).toBe("हमारा घर नदी के किनारे था।\n");
    // Captions beside the answer (valid WebVTT), given to the offline page's player and listed on it.
    expect(await readFile(path.join(folder, "answers/001/captions.vtt"), "utf8")).toBe(
      "WEBVTT\n\n1\n00:00:00.000 --> 00:00:00.400\nहमारा घर\n\n2\n00:00:00.400 --> 00:00:01.000\nनदी के किनारे था।\n",
    );
    const offline = await readFile(path.join(folder, "index.html"), "utf8");
    expect(offline).toContain('<track kind="captions" src="answers/001/captions.vtt" srclang="hi"');
    expect(offline).toContain('<li><span class="time">0:00</span> नदी के किनारे था।</li>');
    expect(onDisk).not.toContain("answers/002/captions.vtt");
    const question = await readFile(path.join(folder, "answers/001/question.txt"), "utf8");
    expect(question).toContain("सवाल: आपका पहला घर कैसा था?");
    expect(question).toContain("किसने पूछा: आशा");

    // index.html in Chromium from file://, with the network off: no request leaves the folder, and
    // the first answer's <audio> can play.
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
    try {
      const page = await browser.newPage({ offline: true, javaScriptEnabled: true });
      const requested: string[] = [];
      page.on("request", (request) => requested.push(request.url()));
      await page.route(/^(https?|wss?):/, (route) => route.abort());
      await page.goto(pathToFileURL(path.join(folder, "index.html")).href);
      expect(await page.locator("html").getAttribute("lang")).toBe("hi");
      await expect(page.locator("h3").first().textContent()).resolves.toBe("आपका पहला घर कैसा था?");
      const playing = await page.evaluate(
        () =>
          new Promise<string>((resolve, reject) => {
            const audio = document.querySelector("audio")!;
            const timer = setTimeout(() => reject(new Error(`no canplay (readyState ${audio.readyState})`)), 15_000);
            audio.addEventListener("canplay", () => {
              clearTimeout(timer);
              resolve(audio.currentSrc);
            });
            audio.preload = "auto";
            audio.load();
          }),
      );
      expect(playing).toMatch(/^file:\/\/.*answers\/001\/(playable\.m4a|original\.wav)$/);
      expect(requested.filter((url) => !url.startsWith("file://"))).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("puts private answers only in their Storyteller's own export of everything", async () => {
    const { owner, st, spoken, second, secret } = await family();
    const storyteller = await signedInUser(database);
    await database.db.updateTable("users").set({ email: st.email! }).where("id", "=", storyteller.id).execute();
    const manifestOf = async (user: User) => {
      const response = (await requestExport(user, { scope: "everything" })) as Response;
      const folder = await unzip(new Uint8Array(await response.arrayBuffer()));
      return JSON.parse(await readFile(path.join(folder, "manifest.json"), "utf8")) as Manifest;
    };
    const mine = await manifestOf(storyteller);
    expect(mine.answers.map((answer) => answer.id)).toEqual([secret.id]);
    expect(mine.answers[0].private).toBe(true);
    const owners = await manifestOf(owner);
    expect(owners.answers.map((answer) => answer.id).sort()).toEqual([spoken.id, second.id].sort());
    // A stranger asking for this Storyteller's export gets a 404.
    const stranger = await signedInUser(database);
    expect((await outcome(() => requestExport(stranger, { scope: "storyteller", storytellerId: st.id }))).status).toBe(
      404,
    );
  });

  it("builds a large export in a job, tells the user, and serves it for 7 days with resumable ranges", async () => {
    const { owner, st } = await family();
    const context = makeTestContext(database, { EXPORT_STREAM_MAX_MB: "0" });
    const queued = await outcome(() =>
      requestExport(owner, { scope: "storyteller", storytellerId: st.id }, { EXPORT_STREAM_MAX_MB: "0" }),
    );
    expect(queued).toMatchObject({ status: 302, location: `/dashboard/recipient/${st.id}/keep` });
    const keepsake = await database.db
      .selectFrom("keepsakes")
      .selectAll()
      .where("user_id", "=", owner.id)
      .executeTakeFirstOrThrow();
    expect(keepsake).toMatchObject({ kind: "export", status: "queued", progress: 0 });

    await runOnce({ pgPool: database.pool, taskList: createTaskList(context) });
    await waitForJobsToSettle(database.db);
    const built = await database.db
      .selectFrom("keepsakes")
      .selectAll()
      .where("id", "=", keepsake.id)
      .executeTakeFirstOrThrow();
    expect(built).toMatchObject({ status: "ready", progress: 100 });
    expect(built.expires_at!.getTime() - built.ready_at!.getTime()).toBe(7 * 86_400_000);
    const notes = await database.db
      .selectFrom("notifications")
      .select(["type", "storyteller_id"])
      .where("user_id", "=", owner.id)
      .execute();
    expect(notes).toEqual([{ type: "export_ready", storyteller_id: st.id }]);
    const email = await database.db
      .selectFrom("outbox_messages")
      .select(["subject", "text_body"])
      .where("to_address", "like", "u-%")
      .executeTakeFirstOrThrow();
    expect(email.subject).toContain("एक्सपोर्ट तैयार है");
    expect(email.text_body).toContain(`http://localhost:3000/dashboard/keep/${keepsake.id}/download`);

    const download = (user: User, headers: Record<string, string> = {}) => {
      const request = get(user.jar, `/dashboard/keep/${keepsake.id}/download`);
      for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
      return downloadLoader({ request, context, params: { id: keepsake.id }, ...routeArgs });
    };
    const whole = (await download(owner)) as Response;
    expect(whole.status).toBe(200);
    const bytes = new Uint8Array(await whole.arrayBuffer());
    expect(bytes.byteLength).toBe(Number(built.byte_size));
    const folder = await unzip(bytes);
    expect(await filesUnder(folder)).toContain("answers/001/playable.m4a");
    // One name, as the family calls her: the file, the folder it unzips into, and the export's title.
    const filename = decodeURIComponent(whole.headers.get("Content-Disposition")!.match(/filename\*=UTF-8''(.+)$/)![1]);
    const day = built.created_at.toISOString().slice(0, 10);
    expect(filename).toBe(`Nani-की-कहानियाँ-${day}.zip`);
    expect(`${path.basename(folder)}.zip`).toBe(filename);
    expect(await readFile(path.join(folder, "index.html"), "utf8")).toContain("<h1>Nani की कहानियाँ</h1>");
    // A broken download resumes where it stopped.
    const rest = (await download(owner, { Range: "bytes=100-" })) as Response;
    expect(rest.status).toBe(206);
    expect(new Uint8Array(await rest.arrayBuffer())).toEqual(bytes.subarray(100));
    // Nobody else may fetch it, and after its 7 days nor may its owner.
    const other = await signedInUser(database);
    expect((await outcome(() => download(other))).status).toBe(404);
    await database.db
      .updateTable("keepsakes")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("id", "=", keepsake.id)
      .execute();
    expect((await outcome(() => download(owner))).status).toBe(404);
  });
});
