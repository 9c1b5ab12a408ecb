import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runOnce } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "~/context.server";
import { ffmpegAvailable, ffmpegBinary, resetFfmpegAvailability } from "~/services/audio.server";
import { signCapability } from "~/services/tokens.server";
import { createTaskList } from "../../jobs/task-list";
import {
  AUDIO_FIXTURE_LABELS,
  amrFile,
  type AudioFixture,
  ffprobeAudioCodec,
  ffprobeDurationMs,
  makeAudioFixtures,
  silentWav,
} from "../audio-fixtures";
import { useTestDatabase } from "../db";
import { createStoryteller, createUser } from "../factories";
import { waitForJobsToSettle } from "../jobs";
import { type ServedBuild, serveBuild } from "../serve-build";

// Every format a phone or browser records in, sent as a Storyteller would (the plain form without
// JavaScript, or the recorder's resumable upload) through the real HTTP app: taken, measured,
// kept as sent, given a playable copy where browsers need one, and served. And the refusals.
// Both ways end in the same acceptRecording, so each format takes one of them, in turn: every
// format and both ways are covered without sending each file twice (half this file's time).
const database = useTestDatabase();
let base = "";
let site: ServedBuild;
let dataDir = "";
let work = "";
let fixtures: AudioFixture[] = [];
let context: AppContext;

beforeAll(async () => {
  dataDir = path.join(os.tmpdir(), `heirloom-uploads-${database.name}`);
  // First, so a missing build fails before the fixtures are encoded.
  site = await serveBuild(database, { env: { DATA_DIR: dataDir } });
  ({ base, context } = site);
  if (!(await ffmpegAvailable())) throw new Error("ffmpeg and ffprobe are required (CI installs them)");
  work = await mkdtemp(path.join(os.tmpdir(), "heirloom-formats-"));
  fixtures = await makeAudioFixtures(work);
}, 60_000);
afterAll(async () => {
  await site?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

async function sentPrompt(language: "en" | "hi" = "en") {
  const owner = await createUser(database.db);
  const storyteller = await createStoryteller(database.db, { ownerId: owner.id, language });
  const prompt = storyteller.prompts[0];
  await database.db.updateTable("prompts").set({ sent_at: new Date() }).where("id", "=", prompt.id).execute();
  const token = await signCapability(context.config, "record", prompt.id);
  return { prompt, token };
}

const answerFor = (promptId: string) =>
  database.db.selectFrom("answers").selectAll().where("prompt_id", "=", promptId).executeTakeFirst();
const storedFiles = (promptId: string) =>
  readdir(path.join(os.tmpdir(), `heirloom-test-files-${database.name}`, "answers", promptId)).catch(
    () => [] as string[],
  );
const pendingUploads = async () =>
  (await readdir(path.join(dataDir, "uploads")).catch(() => [] as string[])).filter((name) => !name.endsWith(".json"));

/** The plain form (no JavaScript): a multipart post of the file to the record page. */
async function postForm(token: string, bytes: Buffer, fileName: string, headers: Record<string, string> = {}) {
  const form = new FormData();
  // Phones label these files all sorts of ways; the server goes by the bytes.
  form.set("audio", new Blob([new Uint8Array(bytes)], { type: "application/octet-stream" }), fileName);
  return fetch(`${base}/record/${token}`, {
    method: "POST",
    body: form,
    headers: { "Sec-Fetch-Site": "same-origin", ...headers },
  });
}

/** The recorder's resumable upload (tus): create, then the bytes in one PATCH. */
async function sendTus(token: string, bytes: Buffer) {
  const created = await fetch(`${base}/uploads`, {
    method: "POST",
    headers: {
      "Tus-Resumable": "1.0.0",
      "Upload-Length": String(bytes.length),
      "Upload-Metadata": `token ${Buffer.from(token).toString("base64")}`,
      "Sec-Fetch-Site": "same-origin",
    },
  });
  if (created.status !== 201) return created;
  return fetch(new URL(created.headers.get("location")!, base), {
    method: "PATCH",
    headers: {
      "Tus-Resumable": "1.0.0",
      "Upload-Offset": "0",
      "Content-Type": "application/offset+octet-stream",
      "Sec-Fetch-Site": "same-origin",
    },
    body: new Uint8Array(bytes),
  });
}

async function runJobs() {
  await runOnce({ pgPool: database.pool, taskList: createTaskList(context) });
  await waitForJobsToSettle(database.db);
}

/** What the record link's player gets: its type, and the sound in it (codec, duration) per ffprobe. */
async function served(token: string) {
  const response = await fetch(`${base}/record/${token}/audio`);
  expect(response.status).toBe(200);
  const file = path.join(work, `served-${token.slice(-12)}`);
  await writeFile(file, Buffer.from(await response.arrayBuffer()));
  return {
    contentType: response.headers.get("content-type"),
    codec: await ffprobeAudioCodec(file),
    durationMs: await ffprobeDurationMs(file),
  };
}

describe("every recording a phone or browser makes", () => {
  /** The way each format is sent: the plain form and the resumable upload in turn. */
  const wayFor = (index: number) => (index % 2 === 0 ? "the plain form" : "the resumable upload");
  const formats = AUDIO_FIXTURE_LABELS.map((label, index) => [label, wayFor(index)] as const);

  it("covers every format of the issue, and each way gets formats kept as sent and formats made playable", () => {
    expect(AUDIO_FIXTURE_LABELS.length).toBeGreaterThanOrEqual(20);
    expect(fixtures.map((fixture) => fixture.label)).toEqual(AUDIO_FIXTURE_LABELS);
    for (const way of [wayFor(0), wayFor(1)]) {
      const sent = fixtures.filter((_, index) => wayFor(index) === way);
      expect(
        sent.some((fixture) => fixture.servedAsRecorded),
        way,
      ).toBe(true);
      expect(sent.filter((fixture) => !fixture.servedAsRecorded).length, way).toBeGreaterThanOrEqual(5);
    }
  });

  it.each(formats)(
    "%s: taken through %s, measured, kept, made playable and served",
    async (label, way) => {
      const fixture = fixtures.find((candidate) => candidate.label === label)!;
      const bytes = await readFile(fixture.file);
      const probedMs = await ffprobeDurationMs(fixture.file);
      const { prompt, token } = await sentPrompt();
      if (way === "the plain form") {
        const form = await postForm(token, bytes, `recording.${fixture.extension}`);
        expect(form.status, fixture.label).toBe(200);
        expect(await form.text()).toContain("Sent. Thank you.");
      } else {
        expect((await sendTus(token, bytes)).status, fixture.label).toBe(204);
      }
      await runJobs(); // the playable copy (answer__transcode) and the transcript

      const answer = (await answerFor(prompt.id))!;
      expect(answer, fixture.label).toMatchObject({
        content_type: fixture.contentType,
        byte_size: String(bytes.length),
      });
      expect(Math.abs(answer.duration_ms! - probedMs), fixture.label).toBeLessThan(1000);
      expect(answer.storage_key!.endsWith(`.${fixture.extension}`), fixture.label).toBe(true);
      // The original is kept as it was sent.
      const original = await context.storage.get(answer.storage_key!);
      expect(Buffer.from(await new Response(original!.body).arrayBuffer()).equals(bytes), fixture.label).toBe(true);

      const player = await served(token);
      if (fixture.servedAsRecorded) {
        expect(answer.playable_storage_key, fixture.label).toBeNull();
        expect(player.contentType, fixture.label).toBe(fixture.contentType);
      } else {
        expect(answer.playable_storage_key, fixture.label).toBe(`answers/${answer.id}/playable.m4a`);
        expect(player, fixture.label).toMatchObject({ contentType: "audio/mp4", codec: "aac" });
      }
      expect(Math.abs(player.durationMs - probedMs), fixture.label).toBeLessThan(1000);
    },
    60_000,
  );
});

describe("what is refused, with nothing kept", () => {
  /** Sends `bytes` both ways and expects `reason` from each, and no answer, stored file or upload left. */
  async function refusedBothWays(bytes: Buffer, reason: string, message: string) {
    const viaForm = await sentPrompt();
    const form = await postForm(viaForm.token, bytes, "recording.m4a");
    expect(form.status).toBe(422);
    expect(await form.text()).toContain(message);
    const viaTus = await sentPrompt();
    const tus = await sendTus(viaTus.token, bytes);
    expect(tus.status).toBe(422);
    expect(await tus.text()).toBe(reason);
    for (const { prompt } of [viaForm, viaTus]) {
      expect(await answerFor(prompt.id)).toBeUndefined();
      expect(await storedFiles(prompt.id)).toEqual([]);
    }
    expect(await pendingUploads()).toEqual([]);
  }

  it("a file that is not audio: a web page, a film", async () => {
    await refusedBothWays(
      Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>".repeat(20)),
      "upload.notAudio",
      "This file is not a voice recording we can use.",
    );
    const film = path.join(work, "film.mp4");
    const { execFile } = await import("node:child_process");
    await new Promise<void>((resolve, reject) =>
      execFile(
        ffmpegBinary(),
        [
          ...["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=duration=1:size=64x64:rate=5"],
          ...["-f", "lavfi", "-i", "sine=duration=1", "-c:v", "mpeg4", "-c:a", "aac", "-shortest", film],
        ],
        (error) => (error ? reject(error) : resolve()),
      ),
    );
    await refusedBothWays(await readFile(film), "upload.notAudio", "This file is not a voice recording we can use.");
  });

  it("a recording with no sound in it", async () => {
    await refusedBothWays(Buffer.from("#!AMR\n"), "upload.empty", "This file is empty.");
  });

  it("a recording over 5:00, even a small one", async () => {
    const sixMinutes = amrFile("nb", 6 * 60); // about 580 KB
    await refusedBothWays(sixMinutes, "upload.tooLong", "This recording is longer than 5 minutes.");
  });

  it("an empty file, and one over 25 MB", async () => {
    const emptyForm = await sentPrompt();
    const response = await postForm(emptyForm.token, Buffer.alloc(0), "recording.m4a");
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("This file is empty.");
    const emptyTus = await sentPrompt();
    const created = await sendTus(emptyTus.token, Buffer.alloc(0));
    expect(await created.text()).toBe("upload.empty");

    const big = Buffer.concat([silentWav(1), Buffer.alloc(25 * 1024 * 1024)]);
    const bigForm = await sentPrompt();
    const tooLarge = await postForm(bigForm.token, big, "recording.wav");
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.text()).toContain("This file is larger than 25 MB.");
    const bigTus = await sentPrompt();
    expect((await sendTus(bigTus.token, big)).status).toBe(413);
    for (const { prompt } of [emptyForm, emptyTus, bigForm, bigTus]) {
      expect(await answerFor(prompt.id)).toBeUndefined();
      expect(await storedFiles(prompt.id)).toEqual([]);
    }
    expect(await pendingUploads()).toEqual([]);
  });

  it("without ffmpeg: the formats it cannot check get 'cannot take this kind of file yet', in English and Hindi", async () => {
    const amr = fixtures.find((fixture) => fixture.extension === "amr")!;
    const aacM4a = fixtures.find((fixture) => fixture.file.endsWith("aac.m4a"))!;
    const previous = { ffmpeg: process.env.FFMPEG_PATH, ffprobe: process.env.FFPROBE_PATH };
    process.env.FFMPEG_PATH = path.join(work, "no-such-ffmpeg");
    process.env.FFPROBE_PATH = path.join(work, "no-such-ffprobe");
    resetFfmpegAvailability();
    try {
      await refusedBothWays(
        await readFile(amr.file),
        "upload.unsupported",
        "This server cannot take this kind of file yet. Please send a WebM, Ogg, M4A (AAC), MP3, WAV or FLAC recording.",
      );
      const hindi = await sentPrompt("hi");
      const response = await postForm(hindi.token, await readFile(amr.file), "recording.amr", {
        "Accept-Language": "hi",
      });
      expect(response.status).toBe(422);
      expect(await response.text()).toContain(
        "यह सर्वर अभी इस तरह की फ़ाइल नहीं ले सकता। कृपया WebM, Ogg, M4A (AAC), MP3, WAV या FLAC रिकॉर्डिंग भेजें।",
      );
      expect(await answerFor(hindi.prompt.id)).toBeUndefined();
      // What it can check is still taken.
      const m4a = await sentPrompt();
      expect((await sendTus(m4a.token, await readFile(aacM4a.file))).status).toBe(204);
      expect(await answerFor(m4a.prompt.id)).toMatchObject({ content_type: "audio/mp4" });
    } finally {
      for (const [name, value] of [
        ["FFMPEG_PATH", previous.ffmpeg],
        ["FFPROBE_PATH", previous.ffprobe],
      ] as const)
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      resetFfmpegAvailability();
    }
  });
});
