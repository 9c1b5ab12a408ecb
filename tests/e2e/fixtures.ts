import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test as base, expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import type { AxeResults } from "axe-core";
import { createDb, createPool, type Db } from "../../db/client";
import { createUser } from "../factories";
import { E2E_DATA_DIR, E2E_PG_PORT } from "./environment";

/** The e2e server's embedded PostgreSQL (see playwright.config.ts), for arranging data directly. */
function connectToE2eDatabase(): Db {
  const { EMBEDDED_PG_PASSWORD } = JSON.parse(readFileSync(`${E2E_DATA_DIR}/secrets.json`, "utf8"));
  return createDb(
    createPool(
      `postgresql://heirloom:${encodeURIComponent(EMBEDDED_PG_PASSWORD)}@127.0.0.1:${E2E_PG_PORT}/heirloom`,
      2,
    ),
  );
}

type Fixtures = {
  /** Patterns of console errors this test expects; anything else fails it. */
  allowedConsoleErrors: RegExp[];
  failOnConsoleError: void;
};

export const test = base.extend<Fixtures, { db: Db }>({
  db: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const db = connectToE2eDatabase();
      await use(db);
      await db.destroy();
    },
    { scope: "worker" },
  ],
  allowedConsoleErrors: [[], { option: true }],
  failOnConsoleError: [
    async ({ page, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && !allowedConsoleErrors.some((pattern) => pattern.test(message.text())))
          errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await use();
      expect(errors, "console errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * axe on the whole page: zero violations. axe runs as a script, which a JavaScript-disabled page
 * cannot run; there it checks a copy of the page's document, without its scripts, in a page that
 * can run axe.
 */
export async function expectNoAxeViolations(page: Page) {
  if (test.info().project.use.javaScriptEnabled !== false) return expectNoViolations(page);
  await inScriptlessPage(page, expectNoViolations);
}

/**
 * One scriptless page per worker, kept between checks and tests: opening a browser context and its
 * renderer for every check cost more than the check. Each check copies the test page's document as
 * it is now (what a no-JavaScript browser shows, a form post's answer included) into that page,
 * without its scripts, so the page is not fetched again and axe's source is evaluated once per worker.
 * Uses wait their turn (a test may check two browsers at once).
 */
const scriptless = new WeakMap<Browser, Promise<Page>>();
let scriptlessTurn: Promise<unknown> = Promise.resolve();

async function openScriptlessPage(browser: Browser) {
  // The test runner gives new contexts the project's options, so JavaScript is switched back on explicitly.
  const context = await browser.newContext({ javaScriptEnabled: true });
  await context.route(/\.m?js(\?.*)?$/, (route) => route.abort());
  return context.newPage();
}

async function inScriptlessPage(page: Page, check: (scriptlessPage: Page) => Promise<void>) {
  const browser = page.context().browser()!;
  const turn = scriptlessTurn.then(async () => {
    let copy = await scriptless.get(browser)?.catch(() => undefined);
    if (!copy || copy.isClosed()) {
      copy = await openScriptlessPage(browser);
      scriptless.set(browser, Promise.resolve(copy));
    }
    const origin = new URL(page.url()).origin;
    // A same-origin document to copy into, so the page's styles and images load as they did.
    if (new URL(copy.url(), "about:blank").origin !== origin) await copy.goto(`${origin}/healthz`);
    await copy.setViewportSize(page.viewportSize()!);
    await copy.evaluate(copyDocument, await page.content());
    await check(copy);
  });
  scriptlessTurn = turn.catch(() => undefined);
  return turn;
}

/** Runs in the scriptless page: its document becomes `html`, with no script and `<noscript>` shown. */
async function copyDocument(html: string) {
  const parsed = new DOMParser().parseFromString(html, "text/html");
  for (const script of parsed.querySelectorAll("script")) script.remove();
  // Parsed without scripting, so `<noscript>` holds elements; unwrapped, as a scriptless browser shows them.
  for (const noscript of parsed.querySelectorAll("noscript")) noscript.replaceWith(...noscript.childNodes);
  document.replaceChild(document.adoptNode(parsed.documentElement), document.documentElement);
  const sheets = [...document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")];
  await Promise.all(
    sheets.map(
      (link) =>
        link.sheet ??
        new Promise((resolve) => {
          link.addEventListener("load", resolve);
          link.addEventListener("error", resolve);
        }),
    ),
  );
}

/**
 * axe-core run in the page itself, its source evaluated once per page. @axe-core/playwright's
 * builder opened a second page and evaluated the 580 kB source twice per check: ~3 s each, which
 * pushed journeys with five checks past their timeout on a loaded machine.
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

async function expectNoViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** axe's violations on the page as it is now, one line each ("rule: targets"). */
export async function axeViolations(page: Page): Promise<string[]> {
  // A step of its own, so that reports show axe's share of a test's time.
  return test.step(
    "axe",
    async () => {
      if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
      const results = await page.evaluate(
        () =>
          (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe.run(
            document,
            { resultTypes: ["violations"] },
          ) as Promise<Pick<AxeResults, "violations">>,
      );
      return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    },
    { box: true },
  );
}

/** Signs a browser context in as a new user, through a real session row (no trip through the UI). */
export async function signInAsNewUser(db: Db, context: BrowserContext, baseURL: string, firstName = "Asha") {
  const { createUserSession } = await import("../../app/auth/session.server");
  const suffix = Math.random().toString(36).slice(2, 10);
  const user = await createUser(db, {
    email: `${firstName.toLowerCase()}.${suffix}@example.com`,
    first_name: firstName,
    last_name: "Test",
    nickname: `${firstName.toLowerCase()}${suffix}`.slice(0, 30),
  });
  const setCookie = await createUserSession({ config: { APP_URL: baseURL } as never }, db, user.id);
  const [pair] = setCookie.split(";");
  const [name, ...value] = pair.split("=");
  await context.addCookies([{ name, value: value.join("="), url: baseURL }]);
  return user;
}
