import { readFileSync } from "node:fs";
import path from "node:path";
import * as imported from "react-i18next";
import { describe, expect, it } from "vitest";
import { i18nAlias } from "./alias";
import { createLiteI18n } from "./lite";

// One translator: what the builds render with is what tsc checks and the tests run (decision 034).
describe('"react-i18next"', () => {
  it("is the lite renderer in tests, as in the builds", async () => {
    const lite = await import("./react-lite");
    expect(imported.useTranslation).toBe(lite.useTranslation);
    expect(imported.I18nextProvider).toBe(lite.I18nextProvider);
    expect(Object.keys(imported)).not.toContain("Trans");
  });

  it("is the same file for tsc", () => {
    const tsconfig = JSON.parse(readFileSync("tsconfig.json", "utf8")) as {
      compilerOptions: { paths: Record<string, string[]> };
    };
    expect(tsconfig.compilerOptions.paths["react-i18next"].map((file) => path.resolve(file))).toEqual([
      i18nAlias["react-i18next"],
    ]);
  });
});

// The lines marked @ts-expect-error fail `npm run typecheck` if the types ever allow them again.
// @ts-expect-error -- the lite renderer has no <Trans>
type _Trans = (typeof import("react-i18next"))["Trans"];

describe("t()", () => {
  const t = createLiteI18n({ lng: "en", resources: { common: { hi: "Hi {{name}}" } } }).getFixedT(["common"]);

  it("takes interpolation values, and nothing the lite translator would ignore", () => {
    expect(t("hi", { name: "Asha" })).toBe("Hi Asha");
    // @ts-expect-error -- no context variants
    expect(t("hi", { name: "Asha", context: "female" })).toBe("Hi Asha");
    // @ts-expect-error -- no default value: a missing key shows as the key
    expect(t("missing", { defaultValue: "Hello" })).toBe("missing");
    // @ts-expect-error -- nor a default string in second place
    expect(t("missing", "Hello")).toBe("missing");
  });
});
