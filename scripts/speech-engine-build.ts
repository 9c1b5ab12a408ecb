// Builds whisper.cpp's whisper-cli (and whisper-quantize, for bench:speech) from the source the
// nodejs-whisper dev dependency vendors (decision 036): only its C/C++ source is used, never its JS.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { engineBuildDir, WHISPER_VERSION } from "~/services/speech-engine.server";

export type Flavour = "native" | "portable";

const SOURCE = path.resolve("node_modules/nodejs-whisper/cpp/whisper.cpp");

/** cmake flags per flavour: static binaries, no OpenMP (no libgomp at run time), no GPU, no SDL or curl. */
export function cmakeFlags(flavour: Flavour): string[] {
  const common = [
    "-DCMAKE_BUILD_TYPE=Release",
    "-DBUILD_SHARED_LIBS=OFF",
    "-DGGML_OPENMP=OFF",
    "-DWHISPER_BUILD_TESTS=OFF",
    "-DWHISPER_BUILD_SERVER=OFF",
    "-DWHISPER_BUILD_EXAMPLES=ON",
    "-DWHISPER_SDL2=OFF",
    "-DWHISPER_CURL=OFF",
    // A one-off build: without this, cmake warns "ccache not found" on every machine that lacks it.
    "-DGGML_CCACHE=OFF",
    // Upstream's code, not ours: its compiler warnings (hundreds, from ggml's intrinsics) would bury
    // the suite's own output.
    "-DCMAKE_C_FLAGS=-w",
    "-DCMAKE_CXX_FLAGS=-w",
  ];
  if (flavour === "native") return [...common, "-DGGML_NATIVE=ON"];
  // Portable: the AVX2 baseline (x86-64-v3: Intel Haswell / AMD Zen and later, every current server);
  // elsewhere (arm64) ggml's generic defaults.
  const x86 = os.arch() === "x64" ? ["-DGGML_AVX=ON", "-DGGML_AVX2=ON", "-DGGML_FMA=ON", "-DGGML_F16C=ON"] : [];
  return [...common, "-DGGML_NATIVE=OFF", ...x86];
}

const has = (binary: string) => spawnSync(binary, ["--version"], { stdio: "ignore" }).status === 0;

const firstLine = (binary: string) =>
  spawnSync(binary, ["--version"], { encoding: "utf8" }).stdout?.split("\n")[0] ?? "";

/**
 * The machine's build cache (beside ensure-node22.sh's Node): a fresh clone on a machine that built
 * this engine before copies it instead of compiling for ~400 CPU-seconds. Keyed by everything the
 * binaries depend on: version, flags, compiler, and for the native flavour the CPU it is tuned for.
 * HEIRLOOM_CACHE_DIR=off builds in the clone only.
 */
export function machineCacheDir(flavour: Flavour, flags: string[], env = process.env): string | null {
  const root = env.HEIRLOOM_CACHE_DIR ?? path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "heirloom");
  if (root === "off") return null;
  const cpu = flavour === "native" ? (readCpuFlags() ?? os.cpus()[0]?.model ?? "") : "";
  const key = createHash("sha256")
    .update(JSON.stringify({ version: WHISPER_VERSION, flags, compiler: firstLine("c++"), cpu, arch: os.arch() }))
    .digest("hex")
    .slice(0, 16);
  return path.join(root, "speech", `whisper-${WHISPER_VERSION}-${flavour}-${key}`);
}

/** The CPU's feature flags (what -march=native tunes for), where Linux says them. */
function readCpuFlags(): string | null {
  try {
    return /^flags\s*:(.*)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? null;
  } catch {
    return null;
  }
}

/** Whether this machine can build the engine (cmake and a C++ compiler). */
export const canBuildEngine = () => has("cmake") && (has("c++") || has("g++"));

const BINARIES = ["whisper-cli", "whisper-quantize"];

/** Whether `dir` holds a complete build stamped `wanted`. */
const complete = (dir: string, wanted: string) => {
  const stamp = path.join(dir, "build.json");
  return (
    existsSync(stamp) &&
    readFileSync(stamp, "utf8") === wanted &&
    BINARIES.every((name) => existsSync(path.join(dir, "bin", name)))
  );
};

/** Copies a build's binaries and stamp from one folder to another, whole or not at all. */
function copyBuild(from: string, to: string, wanted: string) {
  const staging = `${to}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(path.join(staging, "bin"), { recursive: true });
  for (const name of BINARIES) copyFileSync(path.join(from, "bin", name), path.join(staging, "bin", name));
  writeFileSync(path.join(staging, "build.json"), wanted);
  rmSync(to, { recursive: true, force: true });
  renameSync(staging, to);
}

export type BuildOutcome = { dir: string; built: boolean; fromMachineCache?: string };

/**
 * Builds into .cache/speech/whisper-<version>-<flavour>/bin unless that build, with the same flags,
 * is already there (a second run is a no-op) or in the machine's cache (copied). Returns the folder.
 */
export function buildEngine(
  flavour: Flavour,
  options: { root?: string; quiet?: boolean; env?: NodeJS.ProcessEnv } = {},
): BuildOutcome {
  const root = options.root ?? process.cwd();
  const target = engineBuildDir(flavour, root);
  const flags = cmakeFlags(flavour);
  const wanted = JSON.stringify({ version: WHISPER_VERSION, flags }, null, 2);
  const cached = machineCacheDir(flavour, flags, options.env);
  if (complete(target, wanted)) {
    if (cached && !complete(cached, wanted)) keep(target, cached, wanted, options.quiet);
    return { dir: target, built: false };
  }
  if (cached && complete(cached, wanted)) {
    mkdirSync(path.dirname(target), { recursive: true });
    copyBuild(cached, target, wanted);
    return { dir: target, built: false, fromMachineCache: cached };
  }
  if (!existsSync(path.join(SOURCE, "CMakeLists.txt")))
    throw new Error(`whisper.cpp source not found at ${SOURCE}: run \`npm install\` first`);
  if (!canBuildEngine())
    throw new Error("cmake and a C++ compiler are needed: on Debian or Ubuntu, `apt-get install cmake g++`");
  const work = path.join(root, ".cache", "speech", `build-${WHISPER_VERSION}-${flavour}`);
  const stdio = options.quiet ? "ignore" : "inherit";
  const step = (args: string[]) => {
    const result = spawnSync("cmake", args, { stdio });
    if (result.status !== 0) throw new Error(`cmake ${args.slice(0, 2).join(" ")} failed (exit ${result.status})`);
  };
  step(["-S", SOURCE, "-B", work, ...flags]);
  const jobs = String(Math.max(1, os.availableParallelism()));
  step(["--build", work, "--config", "Release", "-j", jobs, "--target", ...BINARIES]);
  mkdirSync(path.dirname(target), { recursive: true });
  copyBuild(work, target, wanted);
  if (cached) keep(target, cached, wanted, options.quiet);
  return { dir: target, built: true };
}

/** Puts a clone's build in the machine cache. Best effort: a read-only or full home only means the next clone compiles. */
function keep(from: string, cached: string, wanted: string, quiet?: boolean) {
  try {
    mkdirSync(path.dirname(cached), { recursive: true });
    copyBuild(from, cached, wanted);
  } catch (error) {
    if (!quiet) console.warn(`speech engine: not kept in ${cached}: ${(error as Error).message}`);
  }
}
