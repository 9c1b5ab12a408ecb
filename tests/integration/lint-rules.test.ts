import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The layer rule is what keeps routes → models → services → db pointing one way; prove it bites.
const eslint = new ESLint();

async function layerErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === "import-x/no-restricted-paths").map((m) => m.message);
}

describe("layer boundaries", () => {
  it.each([
    ["a model importing a route", "app/models/probe.server.ts", 'export { loader } from "~/routes/healthz";\n'],
    ["a service importing a model", "app/services/probe.server.ts", 'export * from "~/models/user.server";\n'],
    ["a route importing the database", "app/routes/probe.ts", 'export * from "../../db/client";\n'],
    ["the database importing a job", "db/probe.ts", 'export * from "../jobs/task-list";\n'],
  ])("refuses %s", async (_name, filePath, code) => {
    expect(await layerErrors(filePath, code)).toEqual([expect.stringContaining("layers point one way")]);
  });

  it("allows a route importing a model, and a model importing the database", async () => {
    expect(await layerErrors("app/routes/probe.ts", 'export * from "~/models/user.server";\n')).toEqual([]);
    expect(await layerErrors("app/models/probe.server.ts", 'export * from "../../db/client";\n')).toEqual([]);
  });
});
