// `npm run bench:js`: the JavaScript a first visit downloads, per page, as the server sends it
// (brotli to browsers on https, gzip otherwise), against ENGINEERING.md's budget (≤ 100 KB
// compressed on first load). Loads each page in Chromium from the production server, then asks
// the server for every script the page requested with each encoding and counts the bytes sent.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { createUserSession } from "../app/auth/session.server";
import { createDb, createPool } from "../db/client";

const PORT = Number(process.env.BENCH_PORT ?? 3396);
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 25441);
const base = `http://localhost:${PORT}`;
// Public pages are served without React (decision 026): 30 KB at most, none expected.
const pages = [
  { path: "/", budgetKb: 30 },
  { path: "/contact-us", budgetKb: 30 },
  { path: "/faqs", budgetKb: 30 },
  { path: "/privacy-policy", budgetKb: 30 },
  { path: "/auth/login", budgetKb: 30 },
  { path: "/auth/register", budgetKb: 30 },
  { path: "/dashboard", budgetKb: 100, signedIn: true },
  { path: "/dashboard/onboarding", budgetKb: 100, signedIn: true },
  { path: "/dashboard/user/account", budgetKb: 100, signedIn: true },
];

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
  for (let i = 0; ; i++) {
    if (i > 600) throw new Error("server did not start");
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { EMBEDDED_PG_PASSWORD } = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
  const db = createDb(
    createPool(`postgresql://heirloom:${encodeURIComponent(EMBEDDED_PG_PASSWORD)}@127.0.0.1:${PG_PORT}/heirloom`, 1),
  );
  const user = await db
    .insertInto("users")
    .values({ email: "bench@example.com", first_name: "Bench", nickname: "bench" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const [cookie] = (await createUserSession({ config: { APP_URL: base } as never }, db, user.id)).split(";");
  await db.destroy();

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  console.log(
    "page".padEnd(14),
    "scripts".padStart(8),
    "brotli KB".padStart(10),
    "gzip KB".padStart(9),
    "budget KB".padStart(10),
  );
  let overBudget = false;
  for (const { path: pagePath, budgetKb, signedIn } of pages) {
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
    await page.goto(`${base}${pagePath}`, { waitUntil: "networkidle" });
    let brotli = 0;
    let gzip = 0;
    for (const url of scripts) {
      brotli += await bytesSent(url, "br");
      gzip += await bytesSent(url, "gzip");
    }
    const kb = brotli / 1024;
    overBudget ||= kb > budgetKb;
    console.log(
      pagePath.padEnd(14),
      String(scripts.size).padStart(8),
      kb.toFixed(1).padStart(10),
      (gzip / 1024).toFixed(1).padStart(9),
      `${budgetKb}`.padStart(10),
      kb > budgetKb ? "OVER" : "ok",
    );
    await context.close();
  }
  await browser.close();
  if (overBudget) process.exitCode = 1;
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
