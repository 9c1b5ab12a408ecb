// Builds whisper.cpp's whisper-cli (and whisper-quantize, for bench:speech) from the source the
// nodejs-whisper dev dependency vendors (decision 036): only its C/C++ source is used, never its JS.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

/** Whether this machine can build the engine (cmake and a C++ compiler). */
export const canBuildEngine = () => has("cmake") && (has("c++") || has("g++"));

/**
 * Builds into .cache/speech/whisper-<version>-<flavour>/bin unless that build, with the same flags,
 * is already there (a second run is a no-op). Returns the folder.
 */
export function buildEngine(flavour: Flavour, options: { root?: string; quiet?: boolean } = {}) {
  const root = options.root ?? process.cwd();
  const target = engineBuildDir(flavour, root);
  const flags = cmakeFlags(flavour);
  const stamp = path.join(target, "build.json");
  const wanted = JSON.stringify({ version: WHISPER_VERSION, flags }, null, 2);
  const binaries = ["whisper-cli", "whisper-quantize"];
  if (
    existsSync(stamp) &&
    readFileSync(stamp, "utf8") === wanted &&
    binaries.every((name) => existsSync(path.join(target, "bin", name)))
  ) {
    return { dir: target, built: false };
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
  step(["--build", work, "--config", "Release", "-j", jobs, "--target", ...binaries]);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(path.join(target, "bin"), { recursive: true });
  for (const name of binaries) copyFileSync(path.join(work, "bin", name), path.join(target, "bin", name));
  writeFileSync(stamp, wanted);
  return { dir: target, built: true };
}
