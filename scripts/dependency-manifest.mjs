// Prints what `npm ci` reads of a package.json: the dependencies and the scripts an install runs.
// The Dockerfile installs from this copy, so editing any other script or field (a test command, the
// description) leaves its dependency and speech-engine layers cached: the copy is cached by its
// content. `npm run speech:install` is kept because the image's build stage runs it before the app.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const KEPT_FIELDS = [
  "name",
  "version",
  "private",
  "type",
  "engines",
  "dependencies",
  "devDependencies",
  "optionalDependencies",
  "peerDependencies",
  "overrides",
  "allowScripts",
];
const KEPT_SCRIPTS = ["preinstall", "install", "postinstall", "prepare", "speech:install"];

/** The fields of `pkg` an install reads, as the text the image copies. */
export function dependencyManifest(pkg) {
  const manifest = Object.fromEntries(KEPT_FIELDS.filter((field) => field in pkg).map((field) => [field, pkg[field]]));
  const scripts = KEPT_SCRIPTS.filter((name) => pkg.scripts?.[name]).map((name) => [name, pkg.scripts[name]]);
  if (scripts.length) manifest.scripts = Object.fromEntries(scripts);
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href)
  process.stdout.write(dependencyManifest(JSON.parse(readFileSync(process.argv[2] ?? "package.json", "utf8"))));
