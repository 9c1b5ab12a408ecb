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
 * cannot run; there it checks the same URL in a page whose script files are blocked, which renders
 * exactly what a no-JavaScript browser gets.
 */
export async function expectNoAxeViolations(page: Page) {
  if (test.info().project.use.javaScriptEnabled !== false) return expectNoViolations(page);
  await inScriptlessPage(page, expectNoViolations);
}

/**
 * One scriptless page per worker, kept between checks and tests: opening a browser context and its
 * renderer for every check cost more than the check (family-journey's 19 checks: no-js 189 worker-s
 * against js 90). Each use takes the test page's cookies and viewport; nothing else carries over, as
 * no script of the app runs there. Uses wait their turn (a test may check two browsers at once).
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
    await copy.context().clearCookies();
    await copy.context().addCookies(await page.context().cookies());
    await copy.setViewportSize(page.viewportSize()!);
    await copy.goto(page.url());
    await check(copy);
  });
  scriptlessTurn = turn.catch(() => undefined);
  return turn;
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
