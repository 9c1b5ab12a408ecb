// `npm run bench:scheduler`: 100,000 Storytellers (BENCH_STORYTELLERS to change it) across 40 time
// zones, all due at the same minute. Measures, in this one process as the server runs them:
//   1. the scheduler tick: time until every delivery job is enqueued;
//   2. graphile-worker (the server's concurrency, already running as in the server) sending every
//      prompt through the outbox: the time from the due minute until the last is sent, and that
//      each Storyteller got exactly one message;
//   3. peak RSS of this process;
// and prints the plan of the tick's due-schedule query (it must use schedules_due_idx) and how many
// jobs failed on a deadlock (there must be none).
// BENCH_PROFILE=1 also says where the CPU went: this process's hottest functions (V8's profiler,
// the .cpuprofile kept in BENCH_CPU_PROFILE when set) and PostgreSQL's costliest statements
// (pg_stat_statements). Both add their own cost: compare CPU seconds of runs without it.
// The zones are picked so the current minute is daytime there: every send is inside 08:00–21:00.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { Logger, run } from "graphile-worker";
import { sql } from "kysely";
import { DateTime } from "luxon";
import { completeConfig, parseEnv } from "../app/config.server";
import { dueSchedulesQuery, runSchedulerTick } from "../app/models/scheduler.server";
import { createOutboxMail } from "../app/services/mail.server";
import { createOutboxSms } from "../app/services/sms.server";
import { createLocalStorage } from "../app/services/storage.server";
import { createDb, createPool } from "../db/client";
import { migrateToLatest } from "../db/migrator";
import { createTaskList, WORKER_CONCURRENCY } from "../jobs/task-list";
import { startEmbeddedPostgres } from "../server/embedded-postgres";
import { type CpuProfile, topFrames, topModules } from "./cpu-profile";

const COUNT = Number(process.env.BENCH_STORYTELLERS ?? 100_000);
const ZONES = 40;
const PROFILE = process.env.BENCH_PROFILE === "1";

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const dataDir = mkdtempSync(path.join(tmpdir(), "heirloom-bench-scheduler-"));
const pg = await startEmbeddedPostgres({
  dataDir,
  port: Number(process.env.BENCH_PG_PORT ?? 25443),
  password: "bench",
  settings: PROFILE ? { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" } : {},
});
// The CPU PostgreSQL's backends used: the postmaster's reaped children (connections closed).
const postmasterPid = () =>
  Number(readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
const backendCpuSeconds = () => {
  const fields = readFileSync(`/proc/${postmasterPid()}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in clock ticks
};
let pool = createPool(pg.url, 12);
let db = createDb(pool);
try {
  await migrateToLatest(db, pool);
  const now = DateTime.utc().startOf("minute");
  // 40 zones, distinct offsets first, where it is between 08:00 and 20:00 right now.
  const daytime = Intl.supportedValuesOf("timeZone").filter((zone) => {
    const hour = now.setZone(zone).hour;
    return hour >= 8 && hour < 20;
  });
  const byOffset = new Map<number, string>();
  for (const zone of daytime) if (!byOffset.has(now.setZone(zone).offset)) byOffset.set(now.setZone(zone).offset, zone);
  const zones = [...byOffset.values(), ...daytime.filter((z) => ![...byOffset.values()].includes(z))].slice(0, ZONES);

  const owner = await db
    .insertInto("users")
    .values({ email: "bench-owner@example.com", first_name: "Bench", nickname: "bench" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const seedStart = performance.now();
  await sql`
    insert into storytellers (owner_id, nickname, first_name, delivery_method, email, time_zone)
    select ${owner.id}, 'Nana', 'Nana', 'email', 'st' || g || '@example.com', (${zones}::text[])[1 + g % ${zones.length}]
    from generate_series(1, ${COUNT}) g`.execute(db);
  await sql`insert into schedules (storyteller_id, first_prompt_date, frequency, next_send_at) select id, '2026-01-01', 'daily', ${now.toJSDate()} from storytellers`.execute(
    db,
  );
  await sql`insert into prompts (storyteller_id, text, queue_position) select id, 'What is your favourite memory from childhood?', 1 from storytellers`.execute(
    db,
  );
  await sql`analyze`.execute(db);
  console.log(`seeded ${COUNT} Storytellers in ${zones.length} zones in ${seconds(performance.now() - seedStart)}`);

  const query = dueSchedulesQuery(now.plus({ seconds: 30 }).toJSDate(), 1000).compile(db);
  const plan = await pool.query(`explain ${query.sql}`, query.parameters as unknown[]);
  const planText = plan.rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n");
  console.log(`\ntick query plan:\n${planText}\n`);

  if (PROFILE) await sql`create extension if not exists pg_stat_statements`.execute(db);
  // A fresh pool for the run, so the backends' CPU is counted from here.
  await db.destroy();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const pgCpuBefore = backendCpuSeconds();
  const nodeCpuBefore = process.cpuUsage();
  pool = createPool(pg.url, 12);
  db = createDb(pool);
  const profiler = PROFILE ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await sql`select pg_stat_statements_reset()`.execute(db);
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.start");
  }

  const config = completeConfig(parseEnv({ NODE_ENV: "production", APP_URL: "https://heirloom.example" }), {
    SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0123",
  });
  const deps = {
    db,
    config,
    storage: createLocalStorage(path.join(dataDir, "files")),
    mail: createOutboxMail({ print: false }),
    sms: createOutboxSms({ print: false }),
  };

  // As in the server: the worker is running when the minute comes, and the tick is one of its jobs,
  // so sends start as soon as the tick's first batch commits.
  const runner = await run({
    pgPool: pool,
    taskList: createTaskList(deps),
    concurrency: WORKER_CONCURRENCY,
    noHandleSignals: true,
    pollInterval: 500,
    logger: new Logger(() => () => {}),
    noPreparedStatements: false,
  });
  let deadlocks = 0;
  runner.events.on("job:error", ({ error }) => {
    if (/deadlock detected/.test((error as Error).message)) deadlocks++;
    console.error("job failed:", (error as Error).message);
  });
  const start = performance.now();
  const tick = await runSchedulerTick(deps, new Date());
  const enqueueMs = performance.now() - start;
  console.log(
    `tick: ${tick.schedules} schedules, ${tick.deliveries} deliveries enqueued in ${seconds(enqueueMs)} (${Math.round(tick.deliveries / (enqueueMs / 1000))}/s)`,
  );
  // Done when no send job is left to run; the ledger is read once then (counting 100,000 rows four
  // times a second cost PostgreSQL seconds of the CPU this measures).
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from graphile_worker.jobs where attempts < max_attempts`.execute(db);
    if (rows[0].n === 0) break;
  }
  const totalMs = performance.now() - start;
  const profile = profiler ? ((await profiler.post("Profiler.stop")) as { profile: CpuProfile }).profile : null;
  await runner.stop();
  const { rows: ended } = await sql<{ status: string; n: number }>`
    select status, count(*)::int as n from deliveries group by status order by status`.execute(db);
  const notSent = ended.filter((r) => r.status !== "sent");
  if (notSent.length) console.log(`deliveries not sent: ${notSent.map((r) => `${r.n} ${r.status}`).join(", ")}`);
  const check = await sql<{ sent: string; prompts: string; messages: string; jobs: string }>`
    select (select count(*) from outbox_messages where status = 'sent') as sent,
           (select count(distinct prompt_id) from deliveries where status = 'sent') as prompts,
           (select count(*) from outbox_messages) as messages,
           (select count(*) from graphile_worker.jobs) as jobs`.execute(db);
  const { sent, prompts, messages, jobs } = check.rows[0];
  console.log(
    `sending: ${sent} emails sent through the outbox (${prompts} prompts, ${messages} messages written, ${jobs} jobs left), ${WORKER_CONCURRENCY} jobs at a time`,
  );
  console.log(
    `total from due to all sent: ${seconds(totalMs)} (${Math.round(Number(sent) / (totalMs / 1000))}/s); peak RSS of this process: ${mb(peakRss)}`,
  );
  const nodeCpu = process.cpuUsage(nodeCpuBefore);
  console.log(`jobs that failed on a deadlock: ${deadlocks}`);
  if (deadlocks) process.exitCode = 1;
  await db.destroy();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const pgCpu = backendCpuSeconds() - pgCpuBefore;
  console.log(
    `CPU used from due to all sent: this process ${((nodeCpu.user + nodeCpu.system) / 1e6).toFixed(1)} s, PostgreSQL backends ${pgCpu.toFixed(1)} s (${cpus().length} cores; load average ${loadavg()[0].toFixed(1)} from other work counts against the wall time)`,
  );
  if (profile) {
    db = createDb((pool = createPool(pg.url, 1)));
    await printProfile(profile);
  }
  if (sent !== String(COUNT) || prompts !== sent || messages !== sent) {
    console.log("NOT every Storyteller got exactly one message");
    process.exitCode = 1;
  }
  const usesIndex = planText.includes("schedules_due_idx") && !/Seq Scan on schedules/.test(planText);
  console.log(`tick query uses schedules_due_idx: ${usesIndex ? "yes" : "NO"}`);
  if (!usesIndex) process.exitCode = 1;
} finally {
  clearInterval(sampler);
  await db.destroy().catch(() => {});
  await pg.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

/** Where the CPU went: this process's hottest frames and packages, PostgreSQL's costliest statements. */
async function printProfile(profile: CpuProfile) {
  if (process.env.BENCH_CPU_PROFILE) writeFileSync(process.env.BENCH_CPU_PROFILE, JSON.stringify(profile));
  console.log(
    `\nthis process, self time:\n${topFrames(profile, 15).join("\n")}\n\nby package:\n${topModules(profile, 10).join("\n")}`,
  );
  const { rows } = await sql<{ ms: number; calls: number; rows: number; query: string }>`
    select round(total_exec_time)::int as ms, calls::int, rows::int, left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 220) as query
    from pg_stat_statements where query not like '%pg_stat_statements%' order by total_exec_time desc limit 20`.execute(
    db,
  );
  const total = await sql<{ ms: number; calls: number }>`
    select round(sum(total_exec_time))::int as ms, sum(calls)::int as calls from pg_stat_statements`.execute(db);
  console.log(`\nPostgreSQL statements: ${total.rows[0].calls} in ${total.rows[0].ms} ms of execution; the costliest:`);
  for (const r of rows)
    console.log(
      `${String(r.ms).padStart(7)} ms ${String(r.calls).padStart(7)} calls ${String(r.rows).padStart(8)} rows  ${r.query}`,
    );
}
