// `npm run lockfile` after changing dependencies; `.ci/run` runs it with --check before `npm ci`.
// The package registry this project is developed against serves only some platforms' builds of
// packages such as rollup, Tailwind's oxide and unrs-resolver, so npm leaves the other platforms'
// optional packages out of package-lock.json and `npm ci` then refuses the lock file ("Missing: …
// from lock file"). This adds the missing entries, with the os/cpu/libc that their names state, so
// `npm ci` works everywhere and each platform fetches only its own build.
// See docs/decisions/006-lock-file-completion.md.
//
//   node scripts/complete-lockfile.mjs          add the missing entries to package-lock.json
//   node scripts/complete-lockfile.mjs --check  change nothing; exit 1 naming any missing entry
import { readFileSync, writeFileSync } from "node:fs";

const LOCK = "package-lock.json";
const OSES = ["android", "darwin", "freebsd", "linux", "netbsd", "openbsd", "openharmony", "sunos", "win32", "aix"];
const CPUS = {
  arm64: "arm64",
  x64: "x64",
  ia32: "ia32",
  arm: "arm",
  loong64: "loong64",
  ppc64: "ppc64",
  riscv64: "riscv64",
  s390x: "s390x",
  wasm32: "wasm32",
};

const check = process.argv.includes("--check");

function platformOf(name) {
  const tokens = name.split("/").pop().split("-");
  const os = tokens.find((t) => OSES.includes(t));
  const cpu = tokens.map((t) => CPUS[t]).find(Boolean);
  const last = tokens.at(-1);
  const libc = /^musl/.test(last) ? "musl" : /^gnu/.test(last) ? "glibc" : undefined;
  return { os, cpu, libc };
}

let lock;
try {
  lock = JSON.parse(readFileSync(LOCK, "utf8"));
} catch (error) {
  console.error(
    `complete-lockfile: cannot read ${LOCK} (${error.message}); run it from the project folder after \`npm install\``,
  );
  process.exit(1);
}

const packages = lock.packages ?? {};
const missing = new Map(); // lock path → entry to add
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path ? `${path}/node_modules/` : "node_modules/";
    const key = `node_modules/${name}`;
    if (packages[`${base}${name}`] || packages[key] || missing.has(key)) continue;
    const { os, cpu, libc } = platformOf(name);
    if (!os && !cpu) continue; // not a platform build: leave it to npm
    const version = /^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec) ? spec : null;
    if (!version) continue; // a range, not the exact pin platform builds use: leave it to npm
    missing.set(key, {
      version,
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(entry.dev ? { dev: true } : {}),
      ...(libc ? { libc: [libc] } : {}),
      optional: true,
      ...(os ? { os: [os] } : {}),
    });
  }
}

if (check) {
  if (!missing.size) {
    console.log(`complete-lockfile: ${LOCK} is complete`);
    process.exit(0);
  }
  const names = [...missing].map(([key, entry]) => `${key.slice("node_modules/".length)}@${entry.version}`);
  console.error(
    `complete-lockfile: ${LOCK} lacks ${missing.size} other-platform optional packages: ${names.join(", ")}`,
  );
  console.error("complete-lockfile: run `npm run lockfile` and commit package-lock.json");
  process.exit(1);
}

if (missing.size) {
  for (const [key, entry] of missing) packages[key] = entry;
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
  );
  writeFileSync(LOCK, JSON.stringify(lock, null, 2) + "\n");
  console.log(`complete-lockfile: recorded ${missing.size} other-platform optional packages in ${LOCK}`);
} else {
  console.log(`complete-lockfile: ${LOCK} is complete`);
}
