import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTestContext, routeArgs } from "../../tests/context";
import { get, signedInUser } from "../../tests/dashboard-routes";
import { useTestDatabase } from "../../tests/db";
import { loader } from "./dashboard.testpage";

const database = useTestDatabase();

async function speechOn(env: Record<string, string>) {
  const user = await signedInUser(database);
  const context = makeTestContext(database, env);
  const result = await loader({ request: get(user.jar, "/dashboard/testpage"), context, params: {}, ...routeArgs });
  return result.speech;
}

describe("Check your setup: answers in words", () => {
  it("names what is missing and the one command that installs it, without paths", async () => {
    const models = await mkdtemp(path.join(os.tmpdir(), "heirloom-testpage-models-"));
    const engine = path.join(models, "whisper-cli");
    await writeFile(engine, "stand-in");
    expect(await speechOn({ SPEECH_ENGINE: path.join(models, "missing-cli"), SPEECH_MODEL_DIR: models })).toEqual({
      state: "noEngine",
      command: "npm run speech:install",
    });
    expect(
      await speechOn({
        SPEECH_ENGINE: engine,
        SPEECH_MODEL_DIR: models,
        SPEECH_MODEL: "base-q5_1",
        SPEECH_MODEL_DOWNLOAD: "on",
      }),
    ).toEqual({
      state: "noModel",
      model: "base-q5_1",
      size: 57,
      command: "npm run speech:model",
    });
    expect(
      await speechOn({ SPEECH_ENGINE: engine, SPEECH_MODEL_DIR: models, SPEECH_MODEL_DOWNLOAD: "off" }),
    ).toMatchObject({ state: "noModelOffline", command: "npm run speech:model" });
    await writeFile(path.join(models, "ggml-small-q5_1.bin"), "stand-in");
    expect(await speechOn({ SPEECH_ENGINE: engine, SPEECH_MODEL_DIR: models })).toEqual({
      state: "ready",
      model: "small-q5_1",
    });
    expect(await speechOn({ TRANSCRIBE_URL: "https://stt.example/v1", TRANSCRIBE_API_KEY: "k" })).toEqual({
      state: "cloud",
    });
  });
});
