// `npm run bench:dashboard`: seeds 16 Storytellers × 100 prompts for one user (30 sent each, those of
// half the Storytellers answered), then loads /dashboard, /dashboard/recipient/{id},
// /dashboard/kanban and /dashboard/timeline from the production server with autocannon, next to a
// bare Node http server answering a fixed page, in the same run. Reports requests/second and latency
// (p90, p97.5 (between which p95 lies) and p99), each page's share of the bare server's throughput,
// and the server process's CPU time per request (from /proc: steadier than req/s on a busy machine,
// where other processes take the cores). /healthz is the floor: Express, the request log and one
// query, skipping the page middleware and React Router as health checks do (decision 040).
// Each page's HTML bytes, and how many of them are the hydration payload (React Router's loader data
// in inline scripts), show a page that carries its data twice.
// BENCH_PORT and BENCH_PG_PORT move the server and its PostgreSQL (to run beside another copy).
// BENCH_HTML_DIR=<dir> saves each page's HTML, nonce, asset hashes and ids normalised, to compare two
// builds' output (`cmp`). BENCH_AGAINST=<another checkout, built> runs that checkout's server beside this
// one on the same database and loads the two in turns (1 s each, BENCH_ROUNDS rounds per page), so a
// busy machine's load falls on both alike: it prints each page's CPU ms per request for both and
// their ratio, the figure to judge a change by on a shared machine. BENCH_CPU_PROF=<dir> profiles the server during each page's load (through its inspector, so the
// figures then include the profiler's cost): <dir>/<page>.cpuprofile, and the top frames printed.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { createUserSession } from "../app/auth/session.server";
import { createDb, createPool } from "../db/client";
import { connectProfiler, inspectorUrl, topFrames, topModules } from "./cpu-profile";

const PORT = Number(process.env.BENCH_PORT ?? 3397);
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 25442);
const base = `http://127.0.0.1:${PORT}`;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 8;
const PROFILE_DIR = process.env.BENCH_CPU_PROF;
const HTML_DIR = process.env.BENCH_HTML_DIR;
const AGAINST = process.env.BENCH_AGAINST && path.resolve(process.env.BENCH_AGAINST);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);

const dataDir = mkdtempSync(path.join(tmpdir(), "heirloom-bench-dash-"));
const server = spawn(
  process.execPath,
  [...(PROFILE_DIR ? ["--inspect=127.0.0.1:0"] : []), "--import", "tsx", "server/main.ts"],
  {
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
    stdio: ["ignore", "ignore", PROFILE_DIR ? "pipe" : "inherit"],
  },
);
const profilerAddress = PROFILE_DIR ? inspectorUrl(server.stderr!) : null;
server.stderr?.pipe(process.stderr);
const exited = new Promise((resolve) => server.on("exit", resolve));

/** CPU time (user + system) the server process has used so far, in ms; null where /proc is missing. */
function serverCpuMs(pid = server.pid): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks, USER_HZ = 100
  } catch {
    return null;
  }
}

let profiler: Awaited<ReturnType<typeof connectProfiler>> | null = null;
const profiles: [string, string[]][] = [];

async function run(url: string, headers: Record<string, string> = {}, measureServer = true) {
  const before = serverCpuMs();
  const load = () => autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  let result!: autocannon.Result;
  if (profiler && measureServer) {
    const profile = await profiler.during(async () => (result = await load()));
    const name = new URL(url).pathname.replace(/[0-9a-f-]{36}/, "id").replace(/\W+/g, "_");
    writeFileSync(path.join(PROFILE_DIR!, `${name}.cpuprofile`), JSON.stringify(profile));
    profiles.push([new URL(url).pathname, [...topFrames(profile), "  by package:", ...topModules(profile)]]);
  } else result = await load();
  const after = serverCpuMs();
  if (result.non2xx) throw new Error(`${url}: ${result.non2xx} responses were not 2xx`);
  const cpu = measureServer && before !== null && after !== null ? (after - before) / result.requests.total : null;
  // autocannon reports p90 and p97.5; p95 lies between them.
  return {
    rps: result.requests.average,
    p90: result.latency.p90,
    p97: result.latency.p97_5,
    p99: result.latency.p99,
    cpu,
  };
}

async function waitForHealth(origin: string) {
  for (let i = 0; ; i++) {
    if (i > 600) throw new Error(`${origin}: server did not start`);
    if (
      await fetch(`${origin}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The other checkout's server, on this run's database and secrets (so the same cookie signs in). */
let other = null as ReturnType<typeof spawn> | null;
const otherBase = `http://127.0.0.1:${PORT + 1}`;
function startOther() {
  const { EMBEDDED_PG_PASSWORD, SESSION_SECRET } = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
  other = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: AGAINST!,
    env: {
      ...process.env,
      NODE_ENV: "production",
      ENV_FILE: "off",
      PORT: String(PORT + 1),
      DATA_DIR: dataDir,
      SESSION_SECRET,
      DATABASE_URL: `postgresql://heirloom:${encodeURIComponent(EMBEDDED_PG_PASSWORD)}@127.0.0.1:${PG_PORT}/heirloom`,
      APP_URL: `http://localhost:${PORT + 1}`,
      WORKER: "off",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return waitForHealth(otherBase);
}

/** Server CPU ms per request of this checkout and the other, loaded in turns. */
async function sideBySide(pagePath: string, headers: Record<string, string>) {
  const totals = [
    { origin: base, pid: server.pid, cpu: 0, requests: 0 },
    { origin: otherBase, pid: other!.pid, cpu: 0, requests: 0 },
  ];
  for (let round = 0; round < ROUNDS; round++) {
    // Who goes first alternates too: a load that rises through a round falls on both.
    for (const side of round % 2 ? [...totals].reverse() : totals) {
      const before = serverCpuMs(side.pid)!;
      const result = await autocannon({ url: side.origin + pagePath, connections: CONNECTIONS, duration: 1, headers });
      if (result.non2xx) throw new Error(`${side.origin}${pagePath}: ${result.non2xx} responses were not 2xx`);
      side.cpu += serverCpuMs(side.pid)! - before;
      side.requests += result.requests.total;
    }
  }
  return totals.map(({ cpu, requests }) => cpu / requests);
}

try {
  await waitForHealth(base);
  if (profilerAddress) {
    mkdirSync(PROFILE_DIR!, { recursive: true });
    profiler = await connectProfiler(await profilerAddress);
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
  let firstId = "";
  let answers = 0;
  for (let s = 0; s < 16; s++) {
    const st = await db
      .insertInto("storytellers")
      .values({
        owner_id: user.id,
        nickname: `Storyteller ${s + 1}`,
        first_name: "S",
        delivery_method: "email",
        email: `s${s}@example.com`,
        time_zone: "America/New_York",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    firstId ||= st.id;
    await db
      .insertInto("schedules")
      .values({ storyteller_id: st.id, first_prompt_date: "2030-01-01", frequency: "weekly" })
      .execute();
    const prompts = await db
      .insertInto("prompts")
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          storyteller_id: st.id,
          text: `Tell me about moment number ${i + 1} of your life?`,
          queue_position: i + 1,
          sent_at: i < 30 ? new Date(Date.now() - i * 86_400_000) : null,
        })),
      )
      .returning(["id", "sent_at"])
      .execute();
    // Half the Storytellers answered every question they were sent: the Timeline's content.
    if (s % 2 === 0) {
      const sent = prompts.filter((p) => p.sent_at);
      await db
        .insertInto("answers")
        .values(
          sent.map((p) => ({
            prompt_id: p.id,
            storyteller_id: st.id,
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
      answers += sent.length;
    }
  }
  const [cookie] = (await createUserSession({ config: { APP_URL: base } as never }, db, user.id)).split(";");
  await db.destroy();

  if (AGAINST) {
    await startOther();
    const pages = [
      "/healthz",
      "/dashboard",
      `/dashboard/recipient/${firstId}`,
      "/dashboard/kanban",
      "/dashboard/timeline",
    ];
    console.log(
      `server CPU ms per request, ${ROUNDS} rounds of 1 s each, ${CONNECTIONS} connections; this checkout against ${AGAINST}`,
    );
    console.log("page".padEnd(30), "this".padStart(8), "other".padStart(8), "this/other".padStart(11));
    for (const page of pages) {
      const [mine, theirs] = await sideBySide(page, page === "/healthz" ? {} : { Cookie: cookie });
      console.log(
        page.replace(firstId, "{id}").padEnd(30),
        mine.toFixed(2).padStart(8),
        theirs.toFixed(2).padStart(8),
        `${((mine / theirs) * 100).toFixed(0)}%`.padStart(11),
      );
    }
  } else {
    const html = await (await fetch(`${base}/dashboard`, { headers: { Cookie: cookie } })).text();
    const bare = createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end(html));
    // Any free port: nothing else needs to find it.
    await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
    const barePort = (bare.address() as AddressInfo).port;

    if (HTML_DIR) mkdirSync(HTML_DIR, { recursive: true });
    const pages = ["/dashboard", `/dashboard/recipient/${firstId}`, "/dashboard/kanban", "/dashboard/timeline"];
    const sizes = await Promise.all(pages.map((page) => pageBytes(`${base}${page}`, cookie)));

    const rows: [string, Awaited<ReturnType<typeof run>>][] = [];
    rows.push(["bare node http (same HTML)", await run(`http://127.0.0.1:${barePort}/`, {}, false)]);
    rows.push(["/healthz (no page: the floor)", await run(`${base}/healthz`)]);
    for (const page of pages) {
      rows.push([page.replace(firstId, "{id}"), await run(`${base}${page}`, { Cookie: cookie })]);
    }
    bare.close();
    const bareRps = rows[0][1].rps;
    console.log(`${CONNECTIONS} connections, ${SECONDS} s each; 16 Storytellers × 100 prompts, ${answers} answers`);
    console.log(
      "page".padEnd(30),
      "req/s".padStart(9),
      "p90 ms".padStart(8),
      "p97.5 ms".padStart(9),
      "p99 ms".padStart(8),
      "of bare".padStart(9),
      "server CPU ms/req".padStart(18),
    );
    for (const [name, { rps, p90, p97, p99, cpu }] of rows) {
      console.log(
        name.padEnd(30),
        rps.toFixed(0).padStart(9),
        String(p90).padStart(8),
        String(p97).padStart(9),
        String(p99).padStart(8),
        `${((rps / bareRps) * 100).toFixed(1)}%`.padStart(9),
        (cpu === null ? "" : cpu.toFixed(2)).padStart(18),
      );
    }
    console.log("\npage".padEnd(31), "HTML bytes".padStart(11), "loader data".padStart(12), "share".padStart(7));
    pages.forEach((page, i) => {
      const { html, data } = sizes[i];
      console.log(
        page.replace(firstId, "{id}").padEnd(30),
        String(html).padStart(11),
        String(data).padStart(12),
        `${((data / html) * 100).toFixed(0)}%`.padStart(7),
      );
    });
    for (const [page, lines] of profiles)
      console.log(`\n${page.replace(firstId, "{id}")} (self time of busy samples)\n${lines.join("\n")}`);
  }
} finally {
  profiler?.close();
  other?.kill("SIGTERM");
  server.kill("SIGTERM");
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * A page's HTML bytes (uncompressed), and those of them that carry its loader data to the client:
 * the inline scripts React Router streams the hydration payload in.
 */
async function pageBytes(url: string, cookie: string) {
  const html = await (await fetch(url, { headers: { Cookie: cookie } })).text();
  if (HTML_DIR)
    writeFileSync(
      path.join(HTML_DIR, `${new URL(url).pathname.replace(/[0-9a-f-]{36}/, "id").replace(/\W+/g, "_")}.html`),
      comparable(html),
    );
  const scripts =
    html.match(/<script[^>]*>window\.__reactRouterContext\.streamController\.enqueue\([\s\S]*?<\/script>/g) ?? [];
  const bytes = (text: string) => Buffer.byteLength(text);
  return { html: bytes(html), data: scripts.reduce((sum, script) => sum + bytes(script), 0) };
}

/**
 * A page's HTML with what differs between two runs on the same data made equal: the CSP nonce, the
 * build's asset hashes and version, the seeded times, and ids (each uuid by its order of first appearance), so two builds' pages can
 * be compared byte for byte.
 */
function comparable(html: string) {
  const ids = new Map<string, string>();
  return html
    .replace(/nonce="[^"]*"/g, 'nonce=""')
    .replace(/"version": ?"[0-9a-f]+"/g, '"version":""')
    .replace(/\d{4}-\d\d-\d\dT\d\d(:|%3A)\d\d(:|%3A)\d\d\.\d{3,6}Z/g, "(time)")
    .replace(/-[A-Za-z0-9_-]{8}\.(js|css)/g, ".$1")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
      if (!ids.has(id)) ids.set(id, `id-${ids.size}`);
      return ids.get(id)!;
    });
}
