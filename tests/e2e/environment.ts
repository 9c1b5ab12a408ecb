// Where the Playwright run's server lives. Another E2E_PORT gets its own data folder, so two runs
// (say, a subagent's and CI's) can go side by side.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3311);
export const E2E_PG_PORT = Number(process.env.E2E_PG_PORT ?? 54322);
export const E2E_DATA_DIR = process.env.E2E_PORT ? `.data/e2e-${E2E_PORT}` : ".data/e2e";
