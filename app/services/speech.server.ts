import os from "node:os";
import type { Config } from "~/config.server";
import { ffmpegAvailable } from "./audio.server";
import { type EngineResult, runSpeechEngine, speechEnginePath, type EngineRun } from "./speech-engine.server";
import { ensureSpeechModel, speechModelInstalled, speechModelLocation } from "./speech-models.server";

type SpeechConfig = Pick<
  Config,
  "WORKER" | "DATA_DIR" | "SPEECH_MODEL" | "SPEECH_MODEL_DIR" | "SPEECH_MODEL_URL" | "SPEECH_ENGINE" | "SPEECH_THREADS"
>;

/**
 * Threads for one transcription: SPEECH_THREADS, else 1 in a process that also serves pages (the
 * other core stays free for requests: decision 036), else every core of a jobs-only process.
 */
export const speechThreads = (config: Pick<Config, "WORKER" | "SPEECH_THREADS">) =>
  config.SPEECH_THREADS ?? (config.WORKER === "only" ? Math.max(1, os.availableParallelism()) : 1);

/** What is installed, for the setup page and the job. */
export function speechSetup(config: SpeechConfig) {
  const model = speechModelLocation(config);
  return {
    engine: speechEnginePath(config),
    model: {
      name: model.name,
      file: model.file,
      installed: speechModelInstalled(config),
      approxMb: model.pinned?.approxMb ?? null,
    },
    threads: speechThreads(config),
  };
}

export type SpeechReadiness = { ok: true } | { ok: false; missing: "engine" | "model"; detail: string };

export type LocalSpeech = {
  /** Whether engine and model are here; downloads a missing named model when allowed. */
  prepare(options: {
    allowDownload: boolean;
    log: (message: string) => void;
    signal?: AbortSignal;
  }): Promise<SpeechReadiness>;
  transcribe(run: Pick<EngineRun, "input" | "language" | "durationMs" | "signal">): Promise<EngineResult>;
};

/**
 * Transcription on this machine. `run` is the engine boundary: tests give a fixed result there and
 * everything from it on (the job, the model, the database) is the real path.
 */
export function createLocalSpeech(
  config: SpeechConfig,
  options: { run?: (run: EngineRun) => Promise<EngineResult> } = {},
): LocalSpeech {
  const run = options.run ?? runSpeechEngine;
  return {
    async prepare({ allowDownload, log, signal }) {
      const engine = speechEnginePath(config);
      if (!engine && !options.run)
        return { ok: false, missing: "engine", detail: config.SPEECH_ENGINE ?? "run `npm run speech:install`" };
      // ffmpeg decodes every recording first: without it the answer waits, it is not unreadable.
      if (!options.run && !(await ffmpegAvailable()))
        return { ok: false, missing: "engine", detail: "ffmpeg not found" };
      if (speechModelInstalled(config)) return { ok: true };
      const location = speechModelLocation(config);
      if (!allowDownload || !location.pinned)
        return { ok: false, missing: "model", detail: `no file at ${location.file}; run \`npm run speech:model\`` };
      log(`downloading the speech model ${location.name} (about ${location.pinned.approxMb} MB) to ${location.file}`);
      try {
        await ensureSpeechModel(config, {
          signal,
          onProgress: (received, total) =>
            log(
              `speech model ${location.name}: ${Math.round(received / 1e6)} MB` +
                (total ? ` of ${Math.round(total / 1e6)} MB (${Math.floor((100 * received) / total)}%)` : ""),
            ),
        });
      } catch (error) {
        // The answer waits; the download is tried again by the next answer's job, and the waiting ones
        // are queued again once the file is here (jobs/speech-worker.ts).
        const reason = error instanceof Error ? error.message : String(error);
        log(`speech model ${location.name} could not be downloaded: ${reason}`);
        return { ok: false, missing: "model", detail: reason };
      }
      return { ok: true };
    },
    transcribe(request) {
      const engine = speechEnginePath(config) ?? "whisper-cli";
      return run({
        ...request,
        engine,
        model: speechModelLocation(config).file,
        threads: speechThreads(config),
      });
    },
  };
}
