// `npm run speech:install [-- --portable]`: builds the speech engine once (decision 036).
// --portable: the AVX2-baseline build the Docker image ships; default: tuned for this machine.
import { buildEngine } from "./speech-engine-build";

const flavour = process.argv.includes("--portable") ? "portable" : "native";
try {
  const started = Date.now();
  const { dir, built, fromMachineCache } = buildEngine(flavour);
  console.log(
    built
      ? `speech engine (${flavour}) built in ${Math.round((Date.now() - started) / 1000)} s: ${dir}/bin/whisper-cli`
      : fromMachineCache
        ? `speech engine (${flavour}) copied from this machine's build cache (${fromMachineCache}): ${dir}/bin/whisper-cli`
        : `speech engine (${flavour}) already built: ${dir}/bin/whisper-cli`,
  );
} catch (error) {
  console.error(`speech:install: ${(error as Error).message}`);
  process.exit(1);
}
