// `npm run speech:model [-- <name>]`: downloads the speech model (SPEECH_MODEL, or the name given)
// into SPEECH_MODEL_DIR (default DATA_DIR/models), checked against the SHA-256 pinned in
// app/services/speech-models.server.ts. A running Heirloom queues the answers that waited for it
// within a minute. Offline: copy the file there by hand instead (its name is printed).
import "../server/env-file";
import { parseEnv } from "~/config.server";
import {
  ensureSpeechModel,
  isSpeechModelName,
  SPEECH_MODEL_NAMES,
  speechModelLocation,
} from "~/services/speech-models.server";

const env = parseEnv(process.env);
const asked = process.argv[2];
if (asked && !isSpeechModelName(asked)) {
  console.error(`speech:model: unknown model "${asked}"; one of ${SPEECH_MODEL_NAMES.join(", ")}`);
  process.exit(1);
}
const config = { ...env, SPEECH_MODEL: asked ?? env.SPEECH_MODEL };
const location = speechModelLocation(config);
console.log(`speech model ${location.name} → ${location.file}`);
if (location.pinned) console.log(`from ${location.pinned.url} (SHA-256 ${location.pinned.sha256})`);
let lastPercent = -1;
try {
  await ensureSpeechModel(config, {
    onProgress: (received, total) => {
      const percent = total ? Math.floor((100 * received) / total) : -1;
      if (percent === lastPercent && percent !== -1) return;
      lastPercent = percent;
      console.log(`${Math.round(received / 1e6)} MB${total ? ` of ${Math.round(total / 1e6)} MB (${percent}%)` : ""}`);
    },
  });
  console.log(`installed: ${location.file}`);
  if (asked && asked !== env.SPEECH_MODEL) console.log(`use it with SPEECH_MODEL=${asked}`);
} catch (error) {
  console.error(`speech:model: ${(error as Error).message}`);
  process.exit(1);
}
