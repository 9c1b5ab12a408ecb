// `npm run bench:speech`: the speech engine on this machine (decisions 035, 036).
// 1. Real-time factor (engine wall time ÷ audio length) and the engine's peak RSS for BENCH_SPEECH_SECONDS
//    (default 300) of audio, per model: generated models of the real shapes (random weights; tiny, base,
//    small in f16, base and small quantised to q5_1 with the built whisper-quantize), SPEECH_THREADS
//    threads (default 1, as beside the web), nice 19, exactly as the job runs it. Random weights make the
//    decoder run to its token limit in every 30-s window and fail every quality check, so it runs with
//    -nf (no temperature fallback: one decode per window, as real speech mostly gets) and -nt (no
//    timestamps: random weights emit random ones, and the engine moves its 30-s window on by the last
//    one, so the windows pile up — tiny made 9,711 segments of 300 s and took 1.2 × real time; real
//    speech moves on by ~30 s). The figure is still pessimistic for the decoder: every window decodes
//    to the token limit, where real speech stops earlier.
// 2. The Timeline's p99 from the production server (WORKER=off) with and without one transcription
//    running beside it (the default model), 4 connections.
// BENCH_SPEECH_MODELS (comma list, default all; empty: none) picks models, BENCH_SPEECH_WEB=off skips part 2; BENCH_PORT / BENCH_PG_PORT move the server.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import autocannon from "autocannon";
import { createUserSession } from "../app/auth/session.server";
import { ffmpegBinary } from "../app/services/audio.server";
import { engineBuildDir, runSpeechEngine, speechEnginePath } from "../app/services/speech-engine.server";
import { DEFAULT_SPEECH_MODEL, SPEECH_MODEL_NAMES } from "../app/services/speech-models.server";
import { createDb, createPool } from "../db/client";
import { generatedModel, type MODEL_SHAPES } from "../tests/support/whisper-model";

const SECONDS = Number(process.env.BENCH_SPEECH_SECONDS ?? 300);
const THREADS = Number(process.env.SPEECH_THREADS ?? 1);
const PORT = Number(process.env.BENCH_PORT ?? 3398);
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 25443);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DEFAULT_MODEL = DEFAULT_SPEECH_MODEL;
const ALL = SPEECH_MODEL_NAMES;
const wanted = (process.env.BENCH_SPEECH_MODELS ?? ALL.join(","))
  .split(",")
  .map((name) => name.trim())
  .filter(Boolean);

const engine = speechEnginePath({});
if (!engine) throw new Error("no speech engine: run `npm run speech:install`");
const quantizer = path.join(path.dirname(engine), "whisper-quantize");
const run = promisify(execFile);

async function model(name: string) {
  const [size, quant] = name.split("-") as [keyof typeof MODEL_SHAPES, string | undefined];
  const f16 = generatedModel(size);
  if (!quant) return f16;
  const file = f16.replace("-f16.bin", `-${quant}.bin`);
  if (!existsSync(file)) await run(quantizer, [f16, file, quant]);
  return file;
}

/** The engine's peak resident memory (VmHWM), read until it exits. */
function watchPeak(pid: number) {
  let peakKb = 0;
  let cpuSeconds = 0;
  const timer = setInterval(() => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (match) peakKb = Math.max(peakKb, Number(match[1]));
      // CPU seconds ÷ audio seconds: the real-time factor of a quiet machine, whatever shares the cores now.
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      cpuSeconds = (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks, USER_HZ = 100
    } catch {
      // exited
    }
  }, 100);
  return { stop: () => (clearInterval(timer), { peakKb, cpuSeconds }) };
}

async function transcribe(file: string, audio: string, onSpawn?: (pid: number) => void) {
  let watcher: ReturnType<typeof watchPeak> | null = null;
  const started = performance.now();
  const result = await runSpeechEngine({
    engine: engine!,
    model: file,
    input: audio,
    language: "en",
    threads: THREADS,
    durationMs: SECONDS * 1000,
    extraArgs: ["-nf", "-nt"],
    onSpawn: (pid) => {
      watcher = watchPeak(pid);
      onSpawn?.(pid);
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const measured = (watcher as ReturnType<typeof watchPeak> | null)?.stop() ?? { peakKb: 0, cpuSeconds: 0 };
  return { seconds, rss: measured.peakKb, cpu: measured.cpuSeconds, segments: result.segments.length };
}

const work = mkdtempSync(path.join(tmpdir(), "heirloom-bench-speech-"));
const audio = path.join(work, "answer.m4a");
await run(ffmpegBinary(), [
  ...["-hide_banner", "-loglevel", "error", "-f", "lavfi"],
  ...["-i", `sine=frequency=180:duration=${SECONDS},vibrato=f=4:d=0.6,volume=0.5`, "-c:a", "aac", "-y", audio],
]);
console.log(`engine ${engine} (${engine.startsWith(engineBuildDir("native")) ? "native" : "other"} build)`);
console.log(`${SECONDS} s of audio, ${THREADS} thread(s), nice 19, -nf -nt; generated models (random weights)`);
console.log(
  "model".padEnd(12),
  "wall s".padStart(8),
  "RTF".padStart(6),
  "CPU s".padStart(8),
  "CPU RTF".padStart(8),
  "peak RSS MB".padStart(12),
  "segments".padStart(9),
);
for (const name of wanted) {
  const file = await model(name);
  const { seconds, rss, cpu, segments } = await transcribe(file, audio);
  console.log(
    name.padEnd(12),
    seconds.toFixed(1).padStart(8),
    (seconds / SECONDS).toFixed(3).padStart(6),
    cpu.toFixed(1).padStart(8),
    (cpu / SECONDS).toFixed(3).padStart(8),
    (rss / 1024).toFixed(0).padStart(12),
    String(segments).padStart(9),
  );
}

// The web beside a transcription (BENCH_SPEECH_WEB=off skips it).
if (process.env.BENCH_SPEECH_WEB === "off") process.exit(0);
const dataDir = mkdtempSync(path.join(tmpdir(), "heirloom-bench-speech-server-"));
const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    ENV_FILE: "off",
    PORT: String(PORT),
    EMBEDDED_PG_PORT: String(PG_PORT),
    DATA_DIR: dataDir,
    APP_URL: `http://localhost:${PORT}`,
    WORKER: "off",
  },
  stdio: ["ignore", "ignore", "inherit"],
});
const exited = new Promise((resolve) => server.on("exit", resolve));
const base = `http://127.0.0.1:${PORT}`;
try {
  for (let i = 0; ; i++) {
    if (i > 3000) throw new Error("server did not start"); // 5 minutes: a busy machine boots slowly
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { EMBEDDED_PG_PASSWORD } = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
  const db = createDb(
    createPool(`postgresql://heirloom:${encodeURIComponent(EMBEDDED_PG_PASSWORD)}@127.0.0.1:${PG_PORT}/heirloom`, 2),
  );
  const user = await db
    .insertInto("users")
    .values({ email: "bench@example.com", first_name: "Bench", nickname: "bench" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const storyteller = await db
    .insertInto("storytellers")
    .values({
      owner_id: user.id,
      nickname: "Nani",
      first_name: "S",
      delivery_method: "email",
      email: "s@example.com",
      time_zone: "Asia/Kolkata",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const prompts = await db
    .insertInto("prompts")
    .values(
      Array.from({ length: 30 }, (_, i) => ({
        storyteller_id: storyteller.id,
        text: `Tell me about moment number ${i + 1} of your life?`,
        queue_position: i + 1,
        sent_at: new Date(Date.now() - i * 86_400_000),
      })),
    )
    .returning(["id", "sent_at"])
    .execute();
  await db
    .insertInto("answers")
    .values(
      prompts.map((p) => ({
        prompt_id: p.id,
        storyteller_id: storyteller.id,
        storage_key: `answers/${p.id}/bench.webm`,
        content_type: "audio/webm",
        byte_size: 48_000,
        duration_ms: 90_000,
        transcript: "We lived by the river, and every evening the whole street sat outside and talked.",
        transcript_status: "done" as const,
        created_at: new Date(p.sent_at!.getTime() + 3_600_000),
      })),
    )
    .execute();
  const [cookie] = (await createUserSession({ config: { APP_URL: base } as never }, db, user.id)).split(";");
  await db.destroy();
  const page = `${base}/dashboard/timeline`;
  const load = async () => {
    const result = await autocannon({ url: page, connections: 4, duration: LOAD_SECONDS, headers: { Cookie: cookie } });
    if (result.non2xx) throw new Error(`${result.non2xx} responses were not 2xx`);
    return { rps: result.requests.average, p99: result.latency.p99 };
  };
  await load(); // warm up
  const quiet = await load();
  // One transcription with the default model, started just before the load and running through it.
  const defaultModel = await model(DEFAULT_MODEL);
  const controller = new AbortController();
  let spawned: () => void = () => undefined;
  const running = new Promise<void>((resolve) => (spawned = resolve));
  const transcription = runSpeechEngine({
    engine,
    model: defaultModel,
    input: audio,
    language: "en",
    threads: THREADS,
    durationMs: SECONDS * 1000,
    extraArgs: ["-nf", "-nt"],
    signal: controller.signal,
    onSpawn: () => spawned(),
  }).catch(() => undefined);
  await running;
  await new Promise((resolve) => setTimeout(resolve, 2000)); // past ffmpeg and model loading
  const busy = await load();
  controller.abort();
  await transcription;
  console.log(
    `\nTimeline (30 answers), 4 connections, ${LOAD_SECONDS} s; transcription: ${DEFAULT_MODEL}, ${THREADS} thread(s), nice 19`,
  );
  console.log(`  alone:                 ${quiet.rps.toFixed(0)} req/s, p99 ${quiet.p99} ms`);
  console.log(
    `  beside a transcription: ${busy.rps.toFixed(0)} req/s, p99 ${busy.p99} ms (${(busy.p99 / quiet.p99).toFixed(2)}× the p99; budget 1.5×)`,
  );
} finally {
  server.kill("SIGTERM");
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}
