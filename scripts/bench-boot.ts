// `npm run bench:boot`: cold boot (empty data dir: initdb + migrations) and warm boot (reused data)
// of the production server, timed from spawn to the first 200 on `/`, with the server process's
// peak memory (VmHWM) after the first page. Runs each several times and prints medians.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PORT = 3390;
const PG_PORT = 25440;

if (!existsSync("build/server/index.js")) {
  console.error("No production build: run `npm run build` first.");
  process.exit(1);
}

type Sample = { bootMs: number; firstPageMs: number; peakRssMb: number };

async function boot(dataDir: string): Promise<Sample> {
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      ENV_FILE: "off",
      PORT: String(PORT),
      EMBEDDED_PG_PORT: String(PG_PORT),
      DATA_DIR: dataDir,
      APP_URL: `http://localhost:${PORT}`,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  let bootMs = 0;
  for (;;) {
    if (performance.now() - started > 120_000) throw new Error("server did not answer within 120 s");
    try {
      const response = await fetch(`http://127.0.0.1:${PORT}/`);
      await response.arrayBuffer();
      if (response.status === 200) {
        bootMs = performance.now() - started;
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const pageStart = performance.now();
  await (await fetch(`http://127.0.0.1:${PORT}/faqs`)).arrayBuffer();
  const firstPageMs = performance.now() - pageStart;
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  const peakRssMb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  child.kill("SIGTERM");
  await exited;
  return { bootMs, firstPageMs, peakRssMb };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const summarize = (samples: Sample[]) => ({
  bootMs: median(samples.map((s) => s.bootMs)),
  firstPageMs: median(samples.map((s) => s.firstPageMs)),
  peakRssMb: median(samples.map((s) => s.peakRssMb)),
});

const cold: Sample[] = [];
const warm: Sample[] = [];
for (let run = 0; run < RUNS; run++) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "heirloom-bench-"));
  try {
    cold.push(await boot(dataDir));
    warm.push(await boot(dataDir));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const c = summarize(cold);
const w = summarize(warm);
const row = (name: string, s: ReturnType<typeof summarize>) =>
  `${name.padEnd(6)} ${s.bootMs.toFixed(0).padStart(8)} ms ${s.firstPageMs.toFixed(1).padStart(10)} ms ${s.peakRssMb.toFixed(0).padStart(8)} MB`;
console.log(`boot to first 200 on / (median of ${RUNS}), then GET /faqs, and the server's peak RSS`);
console.log(`${"".padEnd(6)} ${"boot".padStart(11)} ${"next page".padStart(13)} ${"peak RSS".padStart(11)}`);
console.log(row("cold", c));
console.log(row("warm", w));
console.log(`warm/cold boot ratio: ${(w.bootMs / c.bootMs).toFixed(2)}`);
