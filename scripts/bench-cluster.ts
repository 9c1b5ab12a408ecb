// `npm run bench:cluster`: many processes, one site (decision 024). On one PostgreSQL (embedded,
// started here) and one S3 stand-in (tests/s3-stand-in.ts, in this process):
//   - 3 web processes (`WORKER=off`) and 1 worker (`WORKER=only`, as `npm run worker`) behind a
//     round-robin proxy in this script, which sends each request to the next process;
//   1. 50 users browsing their dashboards for 60 s (BENCH_SECONDS): requests/s, p50/p99, errors;
//   2. 20 two-minute recordings uploaded at once with tus in 256 KB PATCHes (so each upload's
//      PATCHes land on several processes); a third of the way in one web process is killed
//      (SIGKILL) and started again. Exactly 20 answers must exist, each byte for byte the recording;
//   3. 10,000 Storytellers due (BENCH_DUE): 3 processes run the scheduler's tick at the same moment
//      and 3 worker processes send; every Storyteller must get exactly one email.
// Exits non-zero when a check fails. BENCH_PORT (3382: the proxy, the web processes on the next
// three ports) and BENCH_PG_PORT (25503) move it.
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { sql } from "kysely";
import { DateTime } from "luxon";
import { Upload } from "tus-js-client";
import { createUserSession } from "../app/auth/session.server";
import { completeConfig, parseEnv } from "../app/config.server";
import { runSchedulerTick } from "../app/models/scheduler.server";
import { signCapability } from "../app/services/tokens.server";
import { createDb, createPool } from "../db/client";
import { migrateToLatest } from "../db/migrator";
import { startEmbeddedPostgres } from "../server/embedded-postgres";
import { startS3StandIn } from "../tests/s3-stand-in";

const PROXY_PORT = Number(process.env.BENCH_PORT ?? 3382);
const WEB_PORTS = [PROXY_PORT + 1, PROXY_PORT + 2, PROXY_PORT + 3];
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 25503);
const BROWSE_SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const USERS = 50;
const UPLOADS = 20;
const RECORDING_SECONDS = 120;
const CHUNK_BYTES = 256 * 1024;
const DUE = Number(process.env.BENCH_DUE ?? 10_000);
const SESSION_SECRET = "bench-cluster-session-secret-0123456789abcdef";
const APP_URL = `http://localhost:${PROXY_PORT}`;
const METRICS_TOKEN = "bench-cluster-metrics-token";

// A child of this script that runs one scheduler tick when told to go (part 3).
if (process.argv[2] === "--tick") {
  const config = completeConfig(parseEnv(process.env), { SESSION_SECRET });
  const db = createDb(createPool(process.env.DATABASE_URL!, 4));
  process.stdin.once("data", async () => {
    const result = await runSchedulerTick({ db, config });
    process.stdout.write(`${JSON.stringify(result)}\n`);
    await db.destroy();
    process.exit(0);
  });
  process.stdout.write("ready\n");
} else {
  await main();
}

async function main() {
  const failures: string[] = [];
  const check = (ok: boolean, what: string) => {
    console.log(`  ${ok ? "ok  " : "FAIL"} ${what}`);
    if (!ok) failures.push(what);
  };
  const dataDir = mkdtempSync(path.join(tmpdir(), "heirloom-bench-cluster-"));
  const pg = await startEmbeddedPostgres({ dataDir, port: PG_PORT, password: "bench" });
  const pool = createPool(pg.url, 6);
  const db = createDb(pool);
  const s3 = await startS3StandIn("heirloom-bench");
  const children = new Set<ChildProcess>();
  let proxy: Proxy | undefined;

  const env = (extra: Record<string, string>) => ({
    ...process.env,
    NODE_ENV: "production",
    ENV_FILE: "off",
    DATABASE_URL: pg.url,
    SESSION_SECRET,
    APP_URL,
    METRICS_TOKEN,
    LOG_LEVEL: "warn",
    // This machine's Node 20 makes the AWS SDK print a notice per process; it says nothing here.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    ...s3.config,
    ...extra,
  });
  /** A web process (WORKER=off) on `port`, each with a data folder of its own: nothing local is shared. */
  const startWeb = async (port: number) => {
    const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
      env: env({ PORT: String(port), WORKER: "off", DATA_DIR: path.join(dataDir, `web-${port}`) }),
      stdio: ["ignore", "inherit", "inherit"],
    });
    children.add(child);
    child.on("exit", () => children.delete(child));
    for (let i = 0; ; i++) {
      if (i > 600) throw new Error(`web process on ${port} did not start`);
      if (
        await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return child;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  /** A jobs-only process, as `npm run worker` starts it. */
  const startWorker = (name: string) =>
    new Promise<ChildProcess>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
        env: env({ WORKER: "only", LOG_LEVEL: "info", DATA_DIR: path.join(dataDir, name) }),
        stdio: ["ignore", "pipe", "inherit"],
      });
      children.add(child);
      child.on("exit", () => children.delete(child));
      let seen = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        if (seen.length < 10_000) seen += chunk.toString();
        if (seen.includes("jobs only")) resolve(child);
      });
      child.once("exit", (code) => reject(new Error(`worker ${name} exited (${code})`)));
    });

  try {
    await migrateToLatest(db, pool);
    const webs: ChildProcess[] = await Promise.all(WEB_PORTS.map(startWeb));
    await startWorker("worker-1");
    proxy = await startProxy(PROXY_PORT, WEB_PORTS);
    console.log(
      `3 web processes (${WEB_PORTS.join(", ")}) and 1 worker behind a round-robin proxy on ${PROXY_PORT}; ` +
        "one PostgreSQL, one S3 stand-in",
    );

    // ---- 1. Browsing ----
    const sessions = await seedBrowsing(db);
    // Warm each process up (first renders compile and fill caches) before measuring.
    for (const port of WEB_PORTS) {
      for (const page of ["/dashboard", `/dashboard/recipient/${sessions[0].storytellerId}`, "/dashboard/timeline"])
        await fetch(`http://127.0.0.1:${port}${page}`, { headers: { cookie: sessions[0].cookie } }).then((r) =>
          r.text(),
        );
    }
    const load = () =>
      loadavg()
        .map((l) => l.toFixed(1))
        .join(" ");
    console.log(`load average before browsing (2 cores, shared): ${load()}`);
    let nextUser = 0;
    proxy.resetCounts();
    const browse = await autocannon({
      url: `http://127.0.0.1:${PROXY_PORT}`,
      connections: USERS,
      duration: BROWSE_SECONDS,
      // Slow is measured, not counted as an error; no answer within 30 s is one.
      timeout: 30,
      // Each connection is one user going round their dashboard, Storyteller page and Timeline.
      setupClient: (client: { setRequests: (requests: object[]) => void }) => {
        const { cookie, storytellerId } = sessions[nextUser++ % sessions.length];
        client.setRequests(
          ["/dashboard", `/dashboard/recipient/${storytellerId}`, "/dashboard/timeline"].map((p) => ({
            method: "GET",
            path: p,
            headers: { cookie, host: `localhost:${PROXY_PORT}` },
          })),
        );
      },
    } as autocannon.Options);
    console.log(`\n1. ${USERS} users browsing for ${BROWSE_SECONDS} s through the proxy`);
    console.log(
      `  ${browse.requests.total} requests, ${browse.requests.average.toFixed(0)} req/s; latency p50 ${browse.latency.p50} ms, ` +
        `p90 ${browse.latency.p90} ms, p99 ${browse.latency.p99} ms, max ${browse.latency.max} ms`,
    );
    console.log(`  per web process: ${proxy.counts().join(" / ")} requests; load average after: ${load()}`);
    const browseErrors = browse.errors + browse.timeouts + browse.non2xx;
    console.log(
      `  errors: ${browse.errors}, timeouts: ${browse.timeouts}, non-2xx: ${browse.non2xx} (${proxy.statuses()})`,
    );
    check(browseErrors === 0, "no browsing request failed");

    // ---- 2. Uploads, with a web process killed mid-way ----
    console.log(`\n2. ${UPLOADS} recordings (${RECORDING_SECONDS} s WAV each) uploaded at once with tus`);
    const recordings = await seedRecordings(db, UPLOADS);
    proxy.resetCounts();
    const total = recordings.reduce((sum, r) => sum + r.file.length, 0);
    const sent = new Map<string, number>();
    let killed = false;
    let restarted: Promise<ChildProcess> | undefined;
    const uploadStart = performance.now();
    const results = await Promise.all(
      recordings.map(
        (recording) =>
          new Promise<{ ok: boolean; answerId?: string; error?: string }>((resolve) => {
            const upload = new Upload(recording.file, {
              endpoint: `http://127.0.0.1:${PROXY_PORT}/uploads`,
              chunkSize: CHUNK_BYTES,
              retryDelays: [0, 250, 500, 1000, 1000, 2000, 2000, 3000, 3000, 5000, 5000, 5000, 5000],
              metadata: { token: recording.token, private: "0", filetype: "audio/wav" },
              headers: { "Sec-Fetch-Site": "same-origin", Host: `localhost:${PROXY_PORT}` },
              onProgress: (bytes) => {
                sent.set(recording.promptId, bytes);
                const soFar = [...sent.values()].reduce((a, b) => a + b, 0);
                if (!killed && soFar > total / 3) {
                  killed = true;
                  console.log(
                    `  killing the web process on ${WEB_PORTS[1]} (SIGKILL) at ${Math.round((soFar / total) * 100)}% of the bytes` +
                      ` (responses so far: ${proxy!.statuses()})`,
                  );
                  webs[1].kill("SIGKILL");
                  restarted = new Promise((r) => setTimeout(r, 1000)).then(() => startWeb(WEB_PORTS[1]));
                }
              },
              onSuccess: ({ lastResponse }) =>
                resolve({ ok: true, answerId: lastResponse.getHeader("Heirloom-Answer") ?? undefined }),
              onError: (error) => resolve({ ok: false, error: error.message.slice(0, 200) }),
            });
            upload.start();
          }),
      ),
    );
    const uploadMs = performance.now() - uploadStart;
    if (restarted) {
      webs[1] = await restarted;
      console.log(`  the web process on ${WEB_PORTS[1]} was started again and took requests`);
    }
    const failed = results.filter((r) => !r.ok);
    console.log(
      `  ${results.length - failed.length} of ${UPLOADS} uploads succeeded in ${(uploadMs / 1000).toFixed(1)} s ` +
        `(${(total / 1024 / 1024).toFixed(1)} MB); per web process: ${proxy.counts().join(" / ")} requests; ` +
        `${proxy.badGateways()} answered 502 by the proxy while a process was down`,
    );
    for (const f of failed) console.log(`  upload failed: ${f.error}`);
    console.log(`  responses through the proxy: ${proxy.statuses()}`);
    check(failed.length === 0, "every upload reported success to its client");
    const answers = await db
      .selectFrom("answers")
      .select(["id", "prompt_id", "storage_key", "byte_size", "upload_id"])
      .where(
        "prompt_id",
        "in",
        recordings.map((r) => r.promptId),
      )
      .execute();
    check(answers.length === UPLOADS, `exactly ${UPLOADS} answers (found ${answers.length})`);
    check(new Set(answers.map((a) => a.prompt_id)).size === answers.length, "one answer per recording");
    let intact = 0;
    for (const answer of answers) {
      const recording = recordings.find((r) => r.promptId === answer.prompt_id)!;
      const stored = s3.objects.get(answer.storage_key!)?.body;
      if (stored && createHash("sha256").update(stored).digest("hex") === recording.sha256) intact++;
    }
    check(intact === UPLOADS, `every stored answer is its recording byte for byte (${intact} of ${UPLOADS})`);
    // The uploads that became the answers (a client whose upload was lost started a new one).
    const spread = answers.map((a) => proxy!.patchSpread().get(a.upload_id ?? "")?.size ?? 0);
    console.log(`  processes that took each answer's PATCHes: ${spread.join(",")}`);
    check(
      spread.every((n) => n >= 2),
      "each upload's PATCHes landed on different processes",
    );
    check(killed, "a web process was killed mid-upload");
    console.log(
      `  uploads abandoned by their clients and left for the weekly expiry: ${s3.uploads.size} open multipart uploads`,
    );

    // ---- 3. Three processes ticking over 10,000 due Storytellers ----
    console.log(`\n3. ${DUE} Storytellers due; 3 processes tick at once, 3 worker processes send`);
    await Promise.all([startWorker("worker-2"), startWorker("worker-3")]);
    const tickers = await Promise.all(
      [1, 2, 3].map(
        () =>
          new Promise<ChildProcess>((resolve) => {
            const child = spawn(process.execPath, ["--import", "tsx", "scripts/bench-cluster.ts", "--tick"], {
              env: env({}),
              stdio: ["pipe", "pipe", "inherit"],
            });
            children.add(child);
            child.stdout!.once("data", () => resolve(child));
          }),
      ),
    );
    // The workers' own cron tick runs at each minute's start: seed and tick well inside a minute, so
    // the three ticks here are the ones that find the schedules due.
    const second = new Date().getUTCSeconds();
    if (second < 5 || second > 40) await new Promise((resolve) => setTimeout(resolve, ((65 - second) % 60) * 1000));
    await seedDue(db, DUE);
    const tickStart = performance.now();
    const ticks = await Promise.all(
      tickers.map(
        (child) =>
          new Promise<{ schedules: number; deliveries: number }>((resolve) => {
            child.stdout!.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
            child.stdin!.write("go\n");
          }),
      ),
    );
    const tickMs = performance.now() - tickStart;
    console.log(
      `  ticks: ${ticks.map((t) => `${t.schedules} schedules / ${t.deliveries} deliveries`).join("; ")} ` +
        `in ${(tickMs / 1000).toFixed(1)} s`,
    );
    const enqueued = ticks.reduce((sum, t) => sum + t.deliveries, 0);
    check(enqueued === DUE, `the ticks together wrote ${DUE} deliveries, none twice (${enqueued})`);
    let done = { sent: 0, other: 0 };
    for (let i = 0; i < 900; i++) {
      const { rows } = await sql<{ sent: number; other: number }>`
        select count(*) filter (where status = 'sent')::int as sent,
               count(*) filter (where status not in ('sent', 'pending', 'sending'))::int as other
        from deliveries d join prompts p on p.id = d.prompt_id join storytellers s on s.id = p.storyteller_id
        where s.email like 'due%'`.execute(db);
      done = rows[0];
      if (done.sent + done.other >= DUE) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const sendMs = performance.now() - tickStart;
    const { rows: outbox } = await sql<{ messages: number; addresses: number; twice: number }>`
      select count(*)::int as messages, count(distinct to_address)::int as addresses,
        (select count(*)::int from (select 1 from outbox_messages where to_address like 'due%'
           group by to_address having count(*) > 1) d) as twice
      from outbox_messages where to_address like 'due%' and status = 'sent'`.execute(db);
    console.log(
      `  ${done.sent} deliveries sent (${done.other} otherwise) ${(sendMs / 1000).toFixed(1)} s after the ticks began ` +
        `(${Math.round(done.sent / (sendMs / 1000))}/s); outbox: ${outbox[0].messages} emails to ${outbox[0].addresses} addresses`,
    );
    check(outbox[0].messages === DUE && outbox[0].addresses === DUE, `${DUE} sends, one per Storyteller`);
    check(outbox[0].twice === 0, "no Storyteller got two emails");

    // What an operator's Prometheus would read from one of the processes.
    const scrape = await fetch(`http://127.0.0.1:${WEB_PORTS[0]}/metrics`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    }).then((r) => r.text());
    const lines = scrape
      .split("\n")
      .filter((l) => /^heirloom_(jobs\{task="delivery__send"|deliveries|uploads_in)/.test(l));
    console.log(`\n/metrics (web process on ${WEB_PORTS[0]}):\n  ${lines.join("\n  ")}`);
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const child of children) child.kill("SIGKILL");
    await proxy?.close();
    await db.destroy().catch(() => {});
    await s3.close();
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(failures.length ? `\n${failures.length} check(s) failed` : "\nall checks passed");
  process.exit(failures.length ? 1 : 0);
}

type Proxy = Awaited<ReturnType<typeof startProxy>>;

/**
 * The load balancer: each request goes to the next web process in turn (not each connection), so
 * one upload's PATCHes are spread over the processes. A process that is down answers 502, as
 * nginx does once its upstreams fail; the tus client retries.
 */
async function startProxy(port: number, upstreams: number[]) {
  let next = 0;
  let counts = upstreams.map(() => 0);
  let badGateways = 0;
  let statuses = new Map<string, number>();
  const patches = new Map<string, Set<number>>();
  const agents = upstreams.map(() => new http.Agent({ keepAlive: true, maxSockets: 128 }));
  const server = http.createServer((req, res) => {
    // As nginx's proxy_next_upstream (deploy/nginx.conf): a request without a body that cannot
    // reach its process goes to the next one. tus-js-client starts a new upload when its HEAD
    // fails, so this matters; PATCH and POST are never repeated here, the client resumes them.
    const repeatable = req.method === "GET" || req.method === "HEAD";
    const forward = (tries: number) => {
      const index = next++ % upstreams.length;
      counts[index]++;
      const upstream = http.request(
        {
          host: "127.0.0.1",
          port: upstreams[index],
          method: req.method,
          path: req.url,
          headers: { ...req.headers, "x-forwarded-for": req.socket.remoteAddress ?? "", "x-forwarded-proto": "http" },
          agent: agents[index],
        },
        (response) => {
          const key = `${req.method} ${response.statusCode}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          if (req.method === "PATCH" && response.statusCode === 204) {
            const id = (req.url ?? "").split("/").pop()!;
            patches.set(id, (patches.get(id) ?? new Set()).add(index));
          }
          res.writeHead(response.statusCode ?? 502, response.headers);
          response.pipe(res);
          response.on("error", () => res.destroy());
        },
      );
      upstream.on("error", () => {
        if (res.headersSent) return void res.destroy();
        if (repeatable && tries < upstreams.length) return forward(tries + 1);
        badGateways++;
        statuses.set(`${req.method} 502`, (statuses.get(`${req.method} 502`) ?? 0) + 1);
        res.writeHead(502, { "Content-Type": "text/plain", Connection: "close" }).end("bad gateway\n");
      });
      if (repeatable) upstream.end();
      else req.pipe(upstream);
    };
    forward(1);
  });
  // Longer than any pause in the run, so a kept-alive connection is never closed under a request.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    counts: () => counts,
    badGateways: () => badGateways,
    patchSpread: () => patches,
    statuses: () =>
      [...statuses.entries()]
        .sort()
        .map(([k, n]) => `${k}: ${n}`)
        .join(", "),
    resetCounts: () => {
      counts = upstreams.map(() => 0);
      statuses = new Map();
      badGateways = 0;
      patches.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const agent of agents) agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** 50 users, each with a Storyteller of 30 prompts (10 sent, 5 answered), signed in. */
async function seedBrowsing(db: ReturnType<typeof createDb>) {
  const sessions: { cookie: string; storytellerId: string }[] = [];
  for (let u = 0; u < USERS; u++) {
    const user = await db
      .insertInto("users")
      .values({ email: `browser${u}@example.com`, first_name: "Asha", nickname: `browser${u}` })
      .returning("id")
      .executeTakeFirstOrThrow();
    const storyteller = await db
      .insertInto("storytellers")
      .values({
        owner_id: user.id,
        nickname: "Nani",
        first_name: "Nani",
        delivery_method: "email",
        email: `nani${u}@example.com`,
        time_zone: "Asia/Kolkata",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("schedules")
      .values({ storyteller_id: storyteller.id, first_prompt_date: "2030-01-01", frequency: "weekly" })
      .execute();
    const prompts = await db
      .insertInto("prompts")
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          storyteller_id: storyteller.id,
          text: `Tell me about moment number ${i + 1} of your life?`,
          queue_position: i + 1,
          sent_at: i < 10 ? new Date(Date.now() - (i + 1) * 86_400_000) : null,
        })),
      )
      .returning(["id", "sent_at"])
      .execute();
    await db
      .insertInto("answers")
      .values(
        prompts.slice(0, 5).map((p) => ({
          prompt_id: p.id,
          storyteller_id: storyteller.id,
          storage_key: `answers/${p.id}/bench.webm`,
          content_type: "audio/webm",
          byte_size: 48_000,
          duration_ms: 90_000,
          transcript: "We lived by the river, and every evening the whole street sat outside and talked.",
          transcript_status: "done" as const,
        })),
      )
      .execute();
    const [cookie] = (await createUserSession({ config: { APP_URL } as never }, db, user.id)).split(";");
    sessions.push({ cookie, storytellerId: storyteller.id });
  }
  return sessions;
}

/** A 16-bit 8 kHz mono WAV of noise: every byte differs from its neighbours, so a misplaced chunk shows. */
function noiseWav(seconds: number): Buffer {
  const dataBytes = seconds * 8000 * 2;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, randomBytes(dataBytes)]);
}

/** One sent prompt per recording, with its record link's token. */
async function seedRecordings(db: ReturnType<typeof createDb>, count: number) {
  const config = completeConfig(parseEnv({ NODE_ENV: "production", APP_URL }), { SESSION_SECRET });
  const owner = await db
    .insertInto("users")
    .values({ email: "uploads@example.com", first_name: "Ravi", nickname: "uploads" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const recordings = [];
  for (let i = 0; i < count; i++) {
    const storyteller = await db
      .insertInto("storytellers")
      .values({
        owner_id: owner.id,
        nickname: `Dada ${i}`,
        first_name: "Dada",
        delivery_method: "email",
        email: `dada${i}@example.com`,
        time_zone: "Asia/Kolkata",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const prompt = await db
      .insertInto("prompts")
      .values({
        storyteller_id: storyteller.id,
        text: "What did you cook on Sundays?",
        queue_position: 1,
        sent_at: new Date(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const file = noiseWav(RECORDING_SECONDS);
    recordings.push({
      promptId: prompt.id,
      token: await signCapability(config, "record", prompt.id),
      file,
      sha256: createHash("sha256").update(file).digest("hex"),
    });
  }
  return recordings;
}

/** `count` email Storytellers due this minute, in time zones where it is daytime now (bench:scheduler's way). */
async function seedDue(db: ReturnType<typeof createDb>, count: number) {
  const now = DateTime.utc().startOf("minute");
  const zones = Intl.supportedValuesOf("timeZone")
    .filter((zone) => {
      const hour = now.setZone(zone).hour;
      return hour >= 8 && hour < 20;
    })
    .slice(0, 40);
  const owner = await db
    .insertInto("users")
    .values({ email: "due-owner@example.com", first_name: "Bench", nickname: "dueowner" })
    .returning("id")
    .executeTakeFirstOrThrow();
  await sql`
    insert into storytellers (owner_id, nickname, first_name, delivery_method, email, time_zone)
    select ${owner.id}, 'Nana', 'Nana', 'email', 'due' || g || '@example.com', (${zones}::text[])[1 + g % ${zones.length}]
    from generate_series(1, ${count}) g`.execute(db);
  await sql`
    insert into schedules (storyteller_id, first_prompt_date, frequency, next_send_at)
    select id, '2026-01-01', 'daily', ${now.toJSDate()} from storytellers where email like 'due%'`.execute(db);
  await sql`
    insert into prompts (storyteller_id, text, queue_position)
    select id, 'What is your favourite memory from childhood?', 1 from storytellers where email like 'due%'`.execute(
    db,
  );
  await sql`analyze`.execute(db);
}
