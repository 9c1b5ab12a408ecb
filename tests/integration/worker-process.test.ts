import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { enqueueJob } from "~/services/jobs.server";
import { TEST_SESSION_SECRET } from "../context";
import { useTestDatabase } from "../db";
import { jobsFor } from "../jobs";

// `npm run worker` (WORKER=only) as an operator starts it beside web processes: jobs, no HTTP.

const database = useTestDatabase();
const repo = path.resolve(__dirname, "../..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "heirloom-worker-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it("runs the jobs of a shared database and serves no HTTP, then stops on SIGTERM", async () => {
  // A web process already has the port: a jobs-only process must not want it.
  const web: Server = await new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => resolve(server));
  });
  const { port } = web.address() as { port: number };
  await enqueueJob(database.db, "maintenance__cleanup", {});

  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: repo,
    env: {
      ...process.env,
      ENV_FILE: "off",
      NODE_ENV: "production",
      WORKER: "only",
      DATABASE_URL: database.url,
      SESSION_SECRET: TEST_SESSION_SECRET,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
    },
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  try {
    // The job can be done before the process logs that it is ready: wait for both.
    for (
      let i = 0;
      i < 600 &&
      ((await jobsFor(database.db, "maintenance__cleanup")).length > 0 || !output.includes("jobs only, no HTTP"));
      i++
    )
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await jobsFor(database.db, "maintenance__cleanup")).toEqual([]);
    expect(output).toContain("jobs only, no HTTP");
    expect(output).not.toContain("in use");
  } finally {
    child.kill("SIGTERM");
    web.close();
  }
  expect(await exited).toBe(0);
}, 60_000);
