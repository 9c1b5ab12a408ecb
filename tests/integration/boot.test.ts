import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// server/main.ts as an operator starts it, next to something that already holds a port it needs.

const repo = path.resolve(__dirname, "../..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "heirloom-boot-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function occupy(): Promise<{ port: number; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const server: Server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ port, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

async function freePort() {
  const { port, close } = await occupy();
  await close();
  return port;
}

function boot(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const { DATABASE_URL: _url, ...inherited } = process.env;
    const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
      cwd: repo,
      env: {
        ...inherited,
        ENV_FILE: "off",
        NODE_ENV: "development",
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        LOG_LEVEL: "info",
        ...env,
      },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`still running after 100 s:\n${output}`));
    }, 100_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("starting next to a server that holds the port", () => {
  it("names the busy HTTP port and PORT, at once, and exits with 1", async () => {
    const busy = await occupy();
    try {
      const { code, output } = await boot({ PORT: String(busy.port), EMBEDDED_PG_PORT: String(await freePort()) });
      expect(output).toContain(`port ${busy.port} is in use: stop the other server or set PORT`);
      expect(output).not.toContain("undefined");
      expect(code).toBe(1);
      // Checked before PostgreSQL starts: nothing to wait for, nothing left running.
      expect(output).not.toContain("starting embedded PostgreSQL");
    } finally {
      await busy.close();
    }
  });

  it("names the busy embedded PostgreSQL port and EMBEDDED_PG_PORT, and exits with 1", async () => {
    const busy = await occupy();
    try {
      const { code, output } = await boot({ PORT: String(await freePort()), EMBEDDED_PG_PORT: String(busy.port) });
      expect(output).toContain(
        `port ${busy.port} (embedded PostgreSQL) is in use: stop the other server or set EMBEDDED_PG_PORT`,
      );
      expect(output).not.toContain("undefined");
      expect(code).toBe(1);
    } finally {
      await busy.close();
    }
  }, 120_000); // initdb comes first: slow on a busy machine
});
