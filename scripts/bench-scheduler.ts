// `npm run bench:scheduler`: 100,000 Storytellers (BENCH_STORYTELLERS to change it) across 40 time
// zones, all due at the same minute. Measures, in this one process as the server runs them:
//   1. the scheduler tick: time until every delivery job is enqueued;
//   2. graphile-worker (the server's concurrency, already running as in the server) sending every
//      prompt through the outbox: the time from the due minute until the last is sent, and that
//      each Storyteller got exactly one message;
//   3. peak RSS of this process;
// and prints the plan of the tick's due-schedule query (it must use schedules_due_idx).
// The zones are picked so the current minute is daytime there: every send is inside 08:00–21:00.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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

const COUNT = Number(process.env.BENCH_STORYTELLERS ?? 100_000);
const ZONES = 40;

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const dataDir = mkdtempSync(path.join(tmpdir(), "heirloom-bench-scheduler-"));
const pg = await startEmbeddedPostgres({
  dataDir,
  port: Number(process.env.BENCH_PG_PORT ?? 25443),
  password: "bench",
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

  // A fresh pool for the run, so the backends' CPU is counted from here.
  await db.destroy();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const pgCpuBefore = backendCpuSeconds();
  const nodeCpuBefore = process.cpuUsage();
  pool = createPool(pg.url, 12);
  db = createDb(pool);

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
  runner.events.on("job:error", ({ error }) => console.error("job failed:", (error as Error).message));
  const start = performance.now();
  const tick = await runSchedulerTick(deps, new Date());
  const enqueueMs = performance.now() - start;
  console.log(
    `tick: ${tick.schedules} schedules, ${tick.deliveries} deliveries enqueued in ${seconds(enqueueMs)} (${Math.round(tick.deliveries / (enqueueMs / 1000))}/s)`,
  );
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const { rows } = await sql<{ sent: string; other: string }>`
      select count(*) filter (where status = 'sent') as sent, count(*) filter (where status not in ('sent', 'pending', 'sending')) as other from deliveries`.execute(
      db,
    );
    if (Number(rows[0].sent) + Number(rows[0].other) >= tick.deliveries) {
      if (rows[0].other !== "0") console.log(`${rows[0].other} deliveries did not end as sent`);
      break;
    }
  }
  const totalMs = performance.now() - start;
  await runner.stop();
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
  await db.destroy();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const pgCpu = backendCpuSeconds() - pgCpuBefore;
  console.log(
    `CPU used from due to all sent: this process ${((nodeCpu.user + nodeCpu.system) / 1e6).toFixed(1)} s, PostgreSQL backends ${pgCpu.toFixed(1)} s (${cpus().length} cores; load average ${loadavg()[0].toFixed(1)} from other work counts against the wall time)`,
  );
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
