// `npm run bench:js`: the JavaScript a first visit downloads, per page, as the server sends it
// (brotli to browsers on https, gzip otherwise), against the budgets of issue 14 and decision 026:
// every dashboard page <= 100 KB compressed on a first visit, every public page <= 30 KB (they are
// served without React). Loads each page in Chromium from the production server, then asks the
// server for every script the page requested with each encoding and counts the bytes sent. The pages
// are every route of the build's manifest (pagesFromManifest). Exits non-zero when a page is over its
// budget or does not answer as expected (200, or the 404/500 its route is for).
// BENCH_PORT and BENCH_PG_PORT move the server and its PostgreSQL (to run beside another copy).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "@playwright/test";
import { createUserSession } from "../app/auth/session.server";
import { signCapability } from "../app/services/tokens.server";
import { createDb, createPool } from "../db/client";
import {
  createAnswer,
  createGroup,
  createListenLink,
  createPrompt,
  createSelfStoryteller,
  createShareLink,
  createStoryteller,
} from "../tests/factories";

const PORT = Number(process.env.BENCH_PORT ?? 3396);
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 25441);
const base = `http://localhost:${PORT}`;
const DASHBOARD_KB = 100;
const PUBLIC_KB = 30;

type Page = { label: string; path: string; budgetKb: number; signedIn?: boolean; status?: number };
type ServerRoute = { path?: string; index?: boolean; parentId?: string; module: Record<string, unknown> };

/**
 * Every page the build serves, from React Router's route manifest (build/server): each route with a
 * component that no other page nests in, its full path with the parameters filled in by `fill`.
 * A standalone page (no React in the browser, decision 026) has the public budget, any other the
 * dashboard's. A new route with a parameter nobody fills stops the bench, so none goes unmeasured.
 */
function pagesFromManifest(routes: Record<string, ServerRoute>, fill: (param: string, path: string) => string) {
  const isPage = (id: string) => typeof routes[id].module.default === "function";
  const parents = new Set(Object.values(routes).map((route) => route.parentId));
  const chain = (id: string | undefined): string[] => (id ? [...chain(routes[id].parentId), id] : []);
  return Object.keys(routes)
    .filter((id) => isPage(id) && !Object.keys(routes).some((child) => routes[child].parentId === id && isPage(child)))
    .filter((id) => !parents.has(id) || !routes[id].index)
    .map((id) => {
      const ids = chain(id);
      const pattern = `/${ids
        .map((each) => routes[each].path)
        .filter(Boolean)
        .join("/")}`;
      const path = pattern
        .split("/")
        .map((segment) => (segment.startsWith(":") || segment === "*" ? fill(segment, pattern) : segment))
        .join("/");
      const standalone = ids.some((each) => (routes[each].module.handle as { standalone?: boolean })?.standalone);
      return { id, pattern, path, budgetKb: standalone ? PUBLIC_KB : DASHBOARD_KB };
    });
}

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
  // One of everything a page shows: a Storyteller with a queued and a sent prompt and an answer, a
  // group around them, the user's own stories with a prompt to record, and links to the answer.
  const storyteller = await createStoryteller(db, { ownerId: user.id, nickname: "Nani" });
  const sent = await createPrompt(db, { storytellerId: storyteller.id, sentAt: new Date() });
  const answer = await createAnswer(db, { storytellerId: storyteller.id });
  const group = await createGroup(db, { ownerId: user.id, storytellerId: storyteller.id });
  const self = await createSelfStoryteller(db, { id: user.id, email: "bench@example.com", first_name: "Bench" });
  const ownPrompt = await createPrompt(db, { storytellerId: self.id, createdBy: user.id, sentAt: new Date() });
  const share = await createShareLink(db, { answerId: answer.id, createdBy: user.id });
  const listen = await createListenLink(db, { answerId: answer.id, createdBy: user.id });
  await db.destroy();

  const values: Record<string, string> = {
    "/dashboard/recipient/:id": storyteller.id,
    "/dashboard/groups/:id": group.id,
    "/dashboard/answers/:answerId": answer.id,
    "/dashboard/mystories/record/:promptId": ownPrompt.id,
    "/dashboard/user/:nickname": "bench",
    "/responses/:recipientId": storyteller.id,
    "/responses/register/:recipientId": storyteller.id,
    "/record/:token": await signCapability(config, "record", sent.id),
    "/unsubscribe/:token": await signCapability(config, "unsubscribe", storyteller.id),
    "/s/:token": await signCapability(config, "share", share.id),
    "/l/:token": await signCapability(config, "listen", listen.id),
    "/invitations/:token": "not-a-real-token",
    "/:page": "faqs",
    "/dashboard/*": "no/such/page",
    "/*": "no/such/page",
  };
  const fill = (param: string, pattern: string) => {
    const key = Object.keys(values)
      .filter((prefix) => pattern.startsWith(prefix) && prefix.endsWith(param))
      .sort((a, b) => b.length - a.length)[0];
    if (!key) throw new Error(`bench:js has no value for ${param} in ${pattern}: add one to its table`);
    return values[key];
  };
  // What a page answers besides 200, and what it needs besides its path.
  const status: Record<string, number> = {
    "routes/_public.invitations.$token": 404,
    "routes/_public.$": 404,
    "routes/_public.404": 404,
    "routes/_public.500": 500,
    "routes/dashboard.$": 404,
  };
  const query: Record<string, string> = {
    "routes/responses.register.$recipientId": `?t=${await signCapability(config, "register", storyteller.id)}`,
  };
  const signedOut = (id: string) => id.startsWith("routes/_public") || /^routes\/(record|unsubscribe|s|l)\./.test(id);
  const { routes } = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as {
    routes: Record<string, ServerRoute>;
  };
  const pages: Page[] = pagesFromManifest(routes, fill).flatMap(({ id, pattern, path: pagePath, budgetKb }) => {
    const page = {
      label: pattern,
      path: pagePath + (query[id] ?? ""),
      budgetKb,
      signedIn: !signedOut(id),
      status: status[id],
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
