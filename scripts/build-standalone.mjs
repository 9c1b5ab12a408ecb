// After `react-router build`: bundles the scripts of standalone pages (served without React; see
// app/root.tsx) into build/client/assets with a content hash, and records their paths in
// build/standalone-scripts.json for the server: the record page's recorder, the public pages'
// header script and the share pages' words that follow the voice.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const entries = {
  recorder: "app/recorder/recorder.ts",
  "public-page": "app/standalone/public-page.ts",
  "follow-words": "app/standalone/follow-words.ts",
};
const result = await build({
  entryPoints: entries,
  outdir: "build/client/assets",
  entryNames: "[name]-[hash]",
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2019", "safari13"],
  metafile: true,
  logLevel: "warning",
});
const scripts = {};
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  const name = Object.keys(entries).find((key) => output.entryPoint === entries[key]);
  if (name) scripts[name] = `/assets/${path.basename(file)}`;
}
writeFileSync("build/standalone-scripts.json", JSON.stringify(scripts, null, 2) + "\n");
console.log(`standalone scripts: ${Object.values(scripts).join(", ")}`);
