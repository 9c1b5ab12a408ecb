// `npm run bench:export`: one export zip of BENCH_EXPORT_MB (1024) of answers streamed through the
// production server (decision 023), in a temporary data folder with local file storage:
// 1. A Storyteller with 32 answers, each an 16 MB original and a 16 MB playable copy (random bytes:
//    the zip stores them as they are, so what they hold does not matter).
// 2. The same files read straight from disk by this process, for the ratio.
// 3. POST /dashboard/keep/export, as the export button does; the body is read and counted, while the
//    server's RSS is sampled every 100 ms from /proc.
// Prints bytes received against Content-Length, throughput beside the raw read, and the server's RSS
// at rest and at its peak. Exits non-zero when the body is not exactly Content-Length or the RSS
// grows by more than a tenth of what was streamed (memory must stay flat, not follow the size).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createReadStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createUserSession } from "../app/auth/session.server";
import { completeConfig, parseEnv } from "../app/config.server";
import { storageKeys } from "../app/services/storage-keys";
import { createLocalStorage } from "../app/services/storage.server";
import { createDb, createPool } from "../db/client";

const PORT = Number(process.env.BENCH_PORT ?? 3372);
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 25493);
const TOTAL_MB = Number(process.env.BENCH_EXPORT_MB ?? 1024);
const FILE_MB = 16;
const ANSWERS = Math.max(1, Math.round(TOTAL_MB / (2 * FILE_MB)));
const base = `http://127.0.0.1:${PORT}`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const dataDir = mkdtempSync(path.join(tmpdir(), "heirloom-bench-export-"));
const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    ENV_FILE: "off",
    PORT: String(PORT),
    EMBEDDED_PG_PORT: String(PG_PORT),
    DATA_DIR: dataDir,
    APP_URL: base,
    LOG_LEVEL: "warn",
    // Everything streams at once here; the job path is the same stream into storage.
    EXPORT_STREAM_MAX_MB: String(TOTAL_MB * 4),
  },
  stdio: ["ignore", "ignore", "inherit"],
});
const exited = new Promise((resolve) => server.on("exit", resolve));
let failed = false;

try {
  for (let i = 0; ; i++) {
    if (i > 600) throw new Error("server did not start");
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const secrets = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
  const db = createDb(
    createPool(
      `postgresql://heirloom:${encodeURIComponent(secrets.EMBEDDED_PG_PASSWORD)}@127.0.0.1:${PG_PORT}/heirloom`,
      2,
    ),
  );
  const config = completeConfig(parseEnv({ NODE_ENV: "production", APP_URL: base }), {
    SESSION_SECRET: secrets.SESSION_SECRET as string,
  });
  const storage = createLocalStorage(path.join(dataDir, "files"));

  const user = await db
    .insertInto("users")
    .values({ email: "bench@example.com", first_name: "Asha", nickname: "bench" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const storyteller = await db
    .insertInto("storytellers")
    .values({
      owner_id: user.id,
      nickname: "Nani",
      first_name: "Kamla",
      delivery_method: "email",
      email: "kamla@example.com",
      time_zone: "Asia/Kolkata",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const body = randomBytes(FILE_MB * 1024 * 1024);
  const keys: string[] = [];
  for (let i = 0; i < ANSWERS; i++) {
    const prompt = await db
      .insertInto("prompts")
      .values({
        storyteller_id: storyteller.id,
        text: `Question ${i + 1}?`,
        queue_position: i + 1,
        sent_at: new Date(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const id = crypto.randomUUID();
    const original = storageKeys.answerOriginal(prompt.id, "webm");
    const playable = storageKeys.answerPlayable(id);
    await storage.put(original, body, "audio/webm");
    await storage.put(playable, body, "audio/mp4");
    keys.push(original, playable);
    await db
      .insertInto("answers")
      .values({
        id,
        prompt_id: prompt.id,
        storyteller_id: storyteller.id,
        storage_key: original,
        content_type: "audio/webm",
        byte_size: body.byteLength,
        duration_ms: 299_000,
        playable_storage_key: playable,
        playable_content_type: "audio/mp4",
        transcript: `Transcript ${i + 1}.`,
        transcript_status: "done",
      })
      .execute();
  }
  const cookie = (await createUserSession({ config }, db, user.id)).split(";")[0];
  await db.destroy();

  // The same bytes read from disk by this process: what the server's zip is measured against.
  const rawStart = performance.now();
  let rawBytes = 0;
  for (const key of keys)
    for await (const chunk of createReadStream(path.join(dataDir, "files", key))) rawBytes += chunk.length;
  const rawSeconds = (performance.now() - rawStart) / 1000;

  const rssKb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1] ?? NaN);
  const before: number[] = [];
  for (let i = 0; i < 10; i++) {
    before.push(rssKb());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const baseline = Math.max(...before);
  let peak = baseline;
  let samples = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssKb());
    samples++;
  }, 100);

  const start = performance.now();
  const response = await fetch(`${base}/dashboard/keep/export`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin" },
    body: new URLSearchParams({ scope: "storyteller", storytellerId: storyteller.id }),
  });
  const firstByte = (performance.now() - start) / 1000;
  const declared = Number(response.headers.get("Content-Length"));
  let received = 0;
  const reader = response.body!.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) received += part.value.byteLength;
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssKb());

  const growth = (peak - baseline) * 1024;
  console.log(`export of ${ANSWERS} answers (${mb(rawBytes)} of recordings), one zip through the server`);
  console.log(`  status        ${response.status} ${response.headers.get("Content-Type")}`);
  console.log(
    `  bytes         ${received} received, Content-Length ${declared} (${received === declared ? "exact" : "MISMATCH"})`,
  );
  console.log(`  first byte    ${firstByte.toFixed(2)} s (sizes read for the exact length)`);
  console.log(
    `  throughput    ${mb(received / seconds)}/s in ${seconds.toFixed(1)} s; raw disk read ${mb(rawBytes / rawSeconds)}/s: ratio ${(received / seconds / (rawBytes / rawSeconds)).toFixed(2)}`,
  );
  console.log(
    `  server RSS    at rest ${mb(baseline * 1024)}, peak ${mb(peak * 1024)} (+${mb(growth)}, ${((100 * growth) / received).toFixed(1)}% of the bytes streamed; ${samples} samples every 100 ms)`,
  );
  if (response.status !== 200 || received !== declared) failed = true;
  if (growth > received / 10) {
    console.log("  FAIL: memory grew with the export's size");
    failed = true;
  }
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  server.kill("SIGTERM");
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
