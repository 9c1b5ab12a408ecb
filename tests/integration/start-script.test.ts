import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// `npm start` (scripts/start.mjs) in a small stand-in project: the real start and build-stamp
// scripts and server/env-file.ts, a `build` script that only writes a file, and a server/main.ts
// that says how it was started. The real tsx runs it; the build tools are there or not, as a
// hosting platform that prunes dev dependencies leaves them.

const repo = path.resolve(__dirname, "../..");
const project = mkdtempSync(path.join(os.tmpdir(), "heirloom-start-"));
afterAll(() => rmSync(project, { recursive: true, force: true }));

mkdirSync(path.join(project, "scripts"));
mkdirSync(path.join(project, "server"));
mkdirSync(path.join(project, "app"));
mkdirSync(path.join(project, "node_modules"));
for (const file of ["scripts/start.mjs", "scripts/build-stamp.mjs", "server/env-file.ts"])
  cpSync(path.join(repo, file), path.join(project, file));
symlinkSync(path.join(repo, "node_modules/tsx"), path.join(project, "node_modules/tsx"));
writeFileSync(
  path.join(project, "package.json"),
  JSON.stringify({
    name: "start-test",
    private: true,
    type: "module",
    scripts: { build: "node scripts/build-stamp.mjs begin && node fake-build.mjs && node scripts/build-stamp.mjs end" },
  }),
);
// Fails when FAIL_BUILD is set, like a build with a syntax error.
writeFileSync(
  path.join(project, "fake-build.mjs"),
  `import { mkdirSync, writeFileSync } from "node:fs";
if (process.env.FAIL_BUILD) { console.error("fake build failed"); process.exit(2); }
mkdirSync("build/server", { recursive: true });
writeFileSync("build/server/index.js", "export {};\\n");
console.log("fake build ran");
`,
);
writeFileSync(
  path.join(project, "server/main.ts"),
  `import "./env-file";
const mode: string = process.env.NODE_ENV ?? "unset";
console.log(\`serving in \${mode}; FROM_DOTENV=\${process.env.FROM_DOTENV}; PRESET=\${process.env.PRESET}\`);
`,
);
writeFileSync(path.join(project, "app/root.tsx"), "export {};\n");
writeFileSync(path.join(project, ".env"), "FROM_DOTENV=yes\nPRESET=from-file\n");

const BUILD_TOOLS = ["@react-router/dev", "vite", "esbuild"];
function installBuildTools(installed: boolean) {
  for (const name of BUILD_TOOLS) {
    const folder = path.join(project, "node_modules", name);
    if (installed) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, "package.json"), JSON.stringify({ name, version: "0.0.0" }));
    } else rmSync(folder, { recursive: true, force: true });
  }
}

function start(env: Record<string, string> = {}) {
  // Started as `node scripts/start.mjs` from elsewhere: it finds its project itself.
  const result = spawnSync(process.execPath, [path.join(project, "scripts/start.mjs")], {
    cwd: os.tmpdir(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PRESET: "from-environment", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("npm start", () => {
  it("without a build and without the build tools, refuses in one line that says what to do", () => {
    installBuildTools(false);
    const run = start();
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain("serving");
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /cannot start: a build is needed \(there is no complete build yet\).*@react-router\/dev, vite, esbuild.*npm install/,
    );
  });

  it("builds when there is no build, then serves in production with .env read and the environment winning", () => {
    installBuildTools(true);
    const run = start();
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("[heirloom] building: there is no complete build yet");
    expect(run.stdout).toContain("fake build ran");
    expect(run.stdout).toContain("serving in production; FROM_DOTENV=yes; PRESET=from-environment");
    expect(existsSync(path.join(project, "build/.build-stamp.json"))).toBe(true);
  });

  it("serves a fresh build without building, also once the build tools are pruned", () => {
    installBuildTools(false);
    const run = start();
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain("fake build ran");
    expect(run.stdout).toContain("serving in production");
  });

  it("rebuilds after a source file changed, naming it; without the build tools it refuses instead", () => {
    const later = new Date(Date.now() + 5_000);
    utimesSync(path.join(project, "app/root.tsx"), later, later);
    const refused = start();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      `a build is needed (${path.join("app", "root.tsx")} changed since the last build)`,
    );

    installBuildTools(true);
    const rebuilt = start();
    expect(rebuilt.status).toBe(0);
    expect(rebuilt.stdout).toContain(
      `[heirloom] building: ${path.join("app", "root.tsx")} changed since the last build`,
    );
    expect(rebuilt.stdout).toContain("fake build ran");
    expect(rebuilt.stdout).toContain("serving in production");
  });

  it("does not serve when the build fails, and builds again next time", () => {
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(project, "server/main.ts"), later, later);
    const failed = start({ FAIL_BUILD: "1" });
    expect(failed.status).not.toBe(0);
    expect(failed.stdout).not.toContain("serving");
    expect(failed.stderr).toContain("[heirloom] the build failed; not starting");
    expect(existsSync(path.join(project, "build/.build-stamp.json"))).toBe(false);

    const retried = start();
    expect(retried.stdout).toContain("[heirloom] building: there is no complete build yet");
    expect(retried.stdout).toContain("serving in production");
  });
});
