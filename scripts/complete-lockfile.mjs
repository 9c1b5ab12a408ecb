// Runs after every `npm install` (the root postinstall). The package registry this project is
// developed against serves only some platforms' builds of packages such as rollup and Tailwind's
// oxide, so npm leaves the other platforms' optional packages out of package-lock.json and
// `npm ci` then refuses the lock file. This adds the missing entries, with the os/cpu/libc that
// their names state, so `npm ci` works everywhere and each platform fetches only its own build.
import { readFileSync, writeFileSync } from "node:fs";

const LOCK = "package-lock.json";
const OSES = ["android", "darwin", "freebsd", "linux", "netbsd", "openbsd", "openharmony", "sunos", "win32", "aix"];
const CPUS = { arm64: "arm64", x64: "x64", ia32: "ia32", arm: "arm", loong64: "loong64", ppc64: "ppc64", riscv64: "riscv64", s390x: "s390x", wasm32: "wasm32" };

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
} catch {
  process.exit(0); // no lock file (e.g. installed as a dependency): nothing to do
}
const packages = lock.packages ?? {};
let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path ? `${path}/node_modules/` : "node_modules/";
    if (packages[`${base}${name}`] || packages[`node_modules/${name}`]) continue;
    const { os, cpu, libc } = platformOf(name);
    if (!os && !cpu) continue; // not a platform build: leave it to npm
    const version = /^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec) ? spec : null;
    if (!version) continue;
    packages[`node_modules/${name}`] = {
      version,
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(entry.dev ? { dev: true } : {}),
      ...(libc ? { libc: [libc] } : {}),
      optional: true,
      ...(os ? { os: [os] } : {}),
    };
    added++;
  }
}
if (added) {
  lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
  writeFileSync(LOCK, JSON.stringify(lock, null, 2) + "\n");
  console.log(`complete-lockfile: recorded ${added} other-platform optional packages`);
}
