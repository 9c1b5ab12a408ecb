// `npm run bench:js`: the JavaScript a first visit downloads, per page, as the server sends it
// (brotli to browsers on https, gzip otherwise), against the budgets of decision 026:
// every dashboard page <= 100 KB compressed on a first visit, every public page and every page a
// Storyteller or a stranger opens from a message <= 30 KB (they are served without React). Loads each page in Chromium from the production server, then asks the
// server for every script the page requested with each encoding and counts the bytes sent. The pages
// are every route of the build's manifest (pagesFromManifest). Exits non-zero when a page is over its
// budget or does not answer as expected (200, or the 404/500 its route is for).
// BENCH_PORT and BENCH_PG_PORT move the server and its PostgreSQL (to run beside another copy).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { createUserSession } from "../app/auth/session.server";
import { createDb, createPool } from "../db/client";
import {
  builtRoutes,
  expectedStatus,
  filler,
  oneOfEverything,
  pagesFromManifest,
  signedOutPage,
} from "../tests/route-pages";

const PORT = Number(process.env.BENCH_PORT ?? 3396);
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 25441);
const base = `http://localhost:${PORT}`;
const DASHBOARD_KB = 100;
const PUBLIC_KB = 30;

type Page = { label: string; path: string; budgetKb: number; signedIn?: boolean; status?: number };
const dataDir = mkdtempSync(path.join(tmpdir(), "heirloom-bench-js-"));
const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    ENV_FILE: "off",
    PORT: String(PORT),
    EMBEDDED_PG_PORT: String(PG_PORT),
    DATA_DIR: dataDir,
    APP_URL: base,
  },
  stdio: ["ignore", "ignore", "inherit"],
});
const exited = new Promise((resolve) => server.on("exit", resolve));

try {
  // A busy machine can take minutes to start embedded PostgreSQL and migrate.
  for (const giveUp = Date.now() + 300_000; ;) {
    if (Date.now() > giveUp) throw new Error("server did not start");
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const secrets = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
  const config = { SESSION_SECRET: secrets.SESSION_SECRET as string };
  const db = createDb(
    createPool(
      `postgresql://heirloom:${encodeURIComponent(secrets.EMBEDDED_PG_PASSWORD)}@127.0.0.1:${PG_PORT}/heirloom`,
      1,
    ),
  );
  const user = await db
    .insertInto("users")
    .values({ email: "bench@example.com", first_name: "Bench", nickname: "bench" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const [cookie] = (await createUserSession({ config: { APP_URL: base } as never }, db, user.id)).split(";");
  const { values, query } = await oneOfEverything(db, config, {
    ...user,
    email: "bench@example.com",
    first_name: "Bench",
    nickname: "bench",
  });
  await db.destroy();
  const fill = filler(values, "bench:js");
  const routes = await builtRoutes();
  const pages: Page[] = pagesFromManifest(routes, fill).flatMap(({ id, pattern, path: pagePath, standalone }) => {
    const page = {
      label: pattern,
      path: pagePath + (query[id] ?? ""),
      // A page opened from a message (record, unsubscribe, share, listen, invitation) or by anyone
      // signed out is held to the public budget, standalone or not.
      budgetKb: standalone || signedOutPage(id) ? PUBLIC_KB : DASHBOARD_KB,
      signedIn: !signedOutPage(id),
      status: expectedStatus[id],
    };
    // The Storyteller page's Sent tab is the same route with other components.
    return id === "routes/dashboard.recipient.$id"
      ? [page, { ...page, label: `${pattern}?sent=true`, path: `${pagePath}?sent=true` }]
      : [page];
  });
  const width = Math.max(...pages.map((p) => p.label.length)) + 1;

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  console.log(
    "page".padEnd(width),
    "scripts".padStart(8),
    "brotli KB".padStart(10),
    "gzip KB".padStart(9),
    "budget KB".padStart(10),
    "",
  );
  let failed = false;
  for (const { label, path: pagePath, budgetKb, signedIn, status = 200 } of pages) {
    const context = await browser.newContext();
    if (signedIn) {
      const [name, ...value] = cookie.split("=");
      await context.addCookies([{ name, value: value.join("="), url: base }]);
    }
    const page = await context.newPage();
    const scripts = new Set<string>();
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.add(request.url());
    });
    const response = await page.goto(`${base}${pagePath}`, { waitUntil: "networkidle" });
    const answered = response?.status() ?? 0;
    let brotli = 0;
    let gzip = 0;
    for (const url of scripts) {
      brotli += await bytesSent(url, "br");
      gzip += await bytesSent(url, "gzip");
    }
    const kb = brotli / 1024;
    const pass = kb <= budgetKb && answered === status;
    failed ||= !pass;
    console.log(
      label.padEnd(width),
      String(scripts.size).padStart(8),
      kb.toFixed(1).padStart(10),
      (gzip / 1024).toFixed(1).padStart(9),
      `${budgetKb}`.padStart(10),
      pass ? "pass" : answered === status ? "FAIL (over budget)" : `FAIL (status ${answered})`,
    );
    await context.close();
  }
  await browser.close();
  console.log(failed ? "bench:js: some pages FAIL" : "bench:js: every page within its budget");
  if (failed) process.exitCode = 1;
} finally {
  server.kill("SIGTERM");
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}

/** Body bytes on the wire for one encoding (node's fetch would decompress, so plain http). */
function bytesSent(url: string, encoding: "br" | "gzip"): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "Accept-Encoding": encoding } }, (response) => {
        if (response.headers["content-encoding"] !== encoding)
          reject(new Error(`${url} was not sent with ${encoding}`));
        let total = 0;
        response.on("data", (chunk: Buffer) => (total += chunk.length));
        response.on("end", () => resolve(total));
      })
      .on("error", reject);
  });
}
