import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { silentWav } from "./audio-fixtures";

export const run = promisify(execFile);

/** A real AAC/M4A of `seconds` of a quiet tone (ffmpeg), what the transcode job would store as the playable copy. */
export async function m4aAudio(seconds = 1): Promise<Uint8Array> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "keep-audio-"));
  try {
    const input = path.join(directory, "in.wav");
    const output = path.join(directory, "out.m4a");
    await writeFile(input, silentWav(seconds, 16));
    await run("ffmpeg", ["-loglevel", "error", "-i", input, "-c:a", "aac", "-b:a", "32k", output]);
    return new Uint8Array(await readFile(output));
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** A small PNG photo. */
export async function pngPhoto(): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: "#c9955c" } })
      .png()
      .toBuffer(),
  );
}

/** Every file under `root`, as paths relative to it with "/" separators, sorted. */
export async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}
