// `postinstall`: applies patches/ to node_modules with patch-package (decision 058). A patch that no
// longer applies, or that was made for another version, fails the install, so an upgrade of the
// patched package is a moment to check whether upstream has fixed it (and to delete the patch).
//
// A production install (`npm ci --omit=dev`, the Docker image's runtime stage) has no patch-package
// and needs no patch: the patched code runs in the browser, from the client build made with
// devDependencies. That install is told so and goes on.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const omitted = (process.env.npm_config_omit ?? "").split(/[\s,]+/).includes("dev");
const production = process.env.NODE_ENV === "production" && !/\bdev\b/.test(process.env.npm_config_include ?? "");
const bin = "node_modules/.bin/patch-package";

if (!existsSync(bin) && (omitted || production)) {
  console.log("patch-dependencies: devDependencies left out, so patches/ is not applied (the client build has it)");
  process.exit(0);
}
const result = spawnSync(bin, ["--error-on-fail", "--error-on-warn"], { stdio: "inherit" });
process.exit(result.status ?? 1);
