// Where the Playwright run's server lives. Fixed ports sit below 32768, outside the range Linux
// hands out to outgoing connections, so a client socket can never be holding one. Another E2E_PORT gets its own data folder, so two runs
// (say, a subagent's and CI's) can go side by side.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3311);
export const E2E_PG_PORT = Number(process.env.E2E_PG_PORT ?? 25434);
export const E2E_DATA_DIR = process.env.E2E_PORT ? `.data/e2e-${E2E_PORT}` : ".data/e2e";
