// The image installs from package.json's install fields only (scripts/dependency-manifest.mjs), so
// that editing a script rebuilds no dependency layer. It must keep everything `npm ci` reads.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { dependencyManifest } from "../../scripts/dependency-manifest.mjs";

const pkg = JSON.parse(readFileSync("package.json", "utf8"));

describe("the image's dependency manifest", () => {
  it("keeps the dependencies, engines, allowed install scripts and the scripts an install runs", () => {
    const manifest = JSON.parse(dependencyManifest(pkg));
    for (const field of ["name", "version", "type", "engines", "dependencies", "devDependencies", "allowScripts"])
      expect(manifest[field], field).toEqual(pkg[field]);
    expect(manifest.scripts).toEqual({
      postinstall: pkg.scripts.postinstall,
      "speech:install": pkg.scripts["speech:install"],
    });
  });

  it("is the same text whatever happens to the other scripts and fields", () => {
    const edited = { ...pkg, description: "another", scripts: { ...pkg.scripts, test: "echo changed", extra: "x" } };
    expect(dependencyManifest(edited)).toBe(dependencyManifest(pkg));
  });

  it("changes when a dependency or the postinstall does", () => {
    expect(dependencyManifest({ ...pkg, dependencies: { ...pkg.dependencies, "left-pad": "1.3.0" } })).not.toBe(
      dependencyManifest(pkg),
    );
    expect(dependencyManifest({ ...pkg, scripts: { ...pkg.scripts, postinstall: "true" } })).not.toBe(
      dependencyManifest(pkg),
    );
  });
});
