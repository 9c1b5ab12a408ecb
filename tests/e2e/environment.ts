// Where the Playwright run's server lives. Fixed ports sit below 32768, outside the range Linux
// hands out to outgoing connections, so a client socket can never be holding one. Another E2E_PORT gets its own data folder, so two runs
// (say, a subagent's and CI's) can go side by side.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3311);
export const E2E_PG_PORT = Number(process.env.E2E_PG_PORT ?? 25434);
export const E2E_DATA_DIR = process.env.E2E_PORT ? `.data/e2e-${E2E_PORT}` : ".data/e2e";

/**
 * Tests with this tag in their title run in the "js" project only: what they check is the same with
 * JavaScript off (a server's answer, a redirect, a raw request, a webhook), so a second run would add
 * minutes and no coverage. Forms, public pages, sign-in, onboarding and the record page keep their
 * no-JS runs (decision 034).
 */
export const SAME_WITHOUT_JS = "@same-without-js";

/** The e2e server's ADMIN_EMAILS: the one account that runs the site there. */
export const SITE_ADMIN_EMAIL = "runs-the-site@example.com";
