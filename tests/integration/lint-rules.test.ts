import { readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";
import { layerCells, layers, layersMarkdown } from "../../lint/layers.js";

// Every rule docs/CONVENTIONS.md says lint holds, planted once and seen refused (with its allowed
// counterpart where one exists), so a rule that stops biting fails here, not in review.
// no-cycle walks every module a probe reaches (all of the app from jobs/ or server/): minutes on a busy
// machine. Only the cycle test needs it.
const eslint = new ESLint({ overrideConfig: { rules: { "import-x/no-cycle": "off" } } });
const withCycles = new ESLint();
const root = path.resolve(import.meta.dirname, "../..");

/** What lint says of `code` as if it were `filePath`: "rule@line", of one rule or all. */
async function refusals(filePath: string, code: string, rule?: string, linter = eslint) {
  const [result] = await linter.lintText(code, { filePath: path.join(root, filePath) });
  return result.messages.filter((m) => !rule || m.ruleId === rule).map((m) => `${m.ruleId}@${m.line}`);
}

// The first lint loads the plugins and the TypeScript resolver: slow on a busy machine, so once here.
beforeAll(() => refusals("app/models/probe.server.ts", "export {};\n"), 600_000);

// A real module in each folder a layer may not import (the rule resolves the path).
const moduleIn: Record<string, string> = {
  app: "app/models/user.server",
  "app/routes": "app/routes/healthz",
  "app/models": "app/models/user.server",
  "app/auth": "app/auth/session.server",
  "app/services": "app/services/mail.server",
  "app/components": "app/components/forms",
  db: "db/client",
  jobs: "jobs/task-list",
  server: "server/http",
};

describe(
  "layers (lint/layers.js, one table for eslint.config.js and docs/CONVENTIONS.md)",
  { timeout: 120_000 },
  () => {
    it("is the table CONVENTIONS.md shows", () => {
      const doc = readFileSync(path.join(root, "docs/CONVENTIONS.md"), "utf8");
      const shown = /<!-- layers:begin -->([\s\S]*?)<!-- layers:end -->/.exec(doc)?.[1] ?? "";
      const cells = shown
        .split("\n")
        .filter((line) => line.startsWith("|"))
        .slice(2)
        .map((line) =>
          line
            .split("|")
            .slice(1, -1)
            .map((cell) => cell.trim()),
        );
      expect(cells, `paste this between the layers markers:\n${layersMarkdown()}\n`).toEqual(layerCells());
    });

    it.each(layers.map((layer) => [layer.folder, layer] as const))(
      "refuses each import %s may not make",
      async (folder, { mayNotImport }) => {
        const probe = `${folder}/probe.ts`;
        const code = mayNotImport
          .map((from) => `export * from "${path.relative(folder, moduleIn[from]).replace(/^(?!\.)/, "./")}";`)
          .join("\n");
        expect(await refusals(probe, `${code}\n`)).toEqual(
          mayNotImport.map((_, index) => `import-x/no-restricted-paths@${index + 1}`),
        );
      },
    );

    it("allows what the layers allow, and the database its logger", async () => {
      expect(await refusals("app/routes/probe.ts", 'export * from "~/models/user.server";\n')).toEqual([]);
      expect(await refusals("app/models/probe.server.ts", 'export * from "../../db/client";\n')).toEqual([]);
      expect(await refusals("jobs/probe.ts", 'export * from "~/models/user.server";\n')).toEqual([]);
      expect(await refusals("db/probe.ts", 'export * from "../app/services/logger.server";\n')).toEqual([]);
    });
  },
);

describe("the other rules CONVENTIONS.md names", { timeout: 120_000 }, () => {
  it("refuses an import cycle", async () => {
    // user.server.ts imports access.server.ts; an access.server.ts importing it back closes a loop.
    const code = 'import { getAccount } from "./user.server";\nexport const probe = getAccount;\n';
    expect(await refusals("app/models/access.server.ts", code, "import-x/no-cycle", withCycles)).toEqual([
      "import-x/no-cycle@1",
    ]);
  });

  it("refuses a job that queries the database itself, or imports kysely", async () => {
    const code = [
      'import { sql } from "kysely";',
      'import type { JobDeps } from "./task-list";',
      'export const probe = (deps: JobDeps) => deps.db.selectFrom("answers").select(sql`1`.as("one")).execute();',
      'export const probe2 = (deps: JobDeps) => deps.db.deleteFrom("answers").execute();',
    ].join("\n");
    expect(await refusals("jobs/probe__job.ts", `${code}\n`)).toEqual([
      "no-restricted-imports@1",
      "no-restricted-syntax@3",
      "no-restricted-syntax@4",
    ]);
  });

  it("refuses console in app code", async () => {
    expect(await refusals("app/models/probe.server.ts", 'console.log("hello");\n')).toEqual(["no-console@1"]);
  });

  it("refuses a second rule for who may hear an answer, in Kysely or raw SQL, outside the access module", async () => {
    const code = [
      'import { sql } from "kysely";',
      'import type { DbOrTx } from "../../db/client";',
      'export const a = (db: DbOrTx) => db.selectFrom("answers").select("id").where("is_private", "=", false);',
      "export const b = (db: DbOrTx) =>",
      '  db.selectFrom("answers as a").select((eb) => eb("a.recorded_for_email", "=", "x").as("mine"));',
      "export const c = sql`select id from answers a where a.is_private = false`;",
      'export const d = (db: DbOrTx) => db.selectFrom("answers as a").select(["a.id", "a.is_private"]);',
    ].join("\n");
    const rule = "no-restricted-syntax";
    expect(await refusals("app/models/probe.server.ts", `${code}\n`, rule)).toEqual([
      `${rule}@3`,
      `${rule}@5`,
      `${rule}@6`,
    ]);
    // A job is held to it too, and the access module alone writes it.
    expect(await refusals("jobs/probe__job.ts", "export const probe = sql`a.is_private`;\n", rule)).toEqual([
      `${rule}@1`,
    ]);
    expect(await refusals("app/models/access.server.ts", `${code}\n`, rule)).toEqual([]);
  });

  it("refuses a small rule written a second time: a locale, a formatter, escapeHtml, a channel list", async () => {
    const code = [
      "export const when = (language: string, at: Date) =>",
      '  new Intl.DateTimeFormat(language === "hi" ? "hi-IN" : "en-GB", { dateStyle: "long" }).format(at);',
      "export function escapeHtml(value: string) {",
      "  return value;",
      "}",
      'export const channels = ["email", "sms", "call", "whatsapp"] as const;',
      'export type Method = "email" | "sms" | "whatsapp";',
      'export const voice = { language: "en-US" };',
    ].join("\n");
    const rule = "no-restricted-syntax";
    expect(await refusals("app/routes/probe.server.ts", `${code}\n`, rule)).toEqual([
      `${rule}@2`,
      `${rule}@2`,
      `${rule}@2`,
      `${rule}@3`,
      `${rule}@6`,
      `${rule}@7`,
    ]);
    // Their homes write them; the formatters' home may still not compare an answer's privacy.
    expect(await refusals("app/utils/intl-formats.ts", `${code.split("\n").slice(0, 2).join("\n")}\n`, rule)).toEqual(
      [],
    );
    expect(await refusals("app/utils/intl-formats.ts", "export const probe = sql`a.is_private`;\n", rule)).toEqual([
      `${rule}@1`,
    ]);
  });

  it("refuses imports out of order", async () => {
    const code = 'import { z } from "zod";\nimport { readFileSync } from "node:fs";\nexport { z, readFileSync };\n';
    expect(await refusals("app/models/probe.server.ts", code)).toEqual(["import-x/order@2"]);
  });

  it("refuses a hook called conditionally, and an image without a text alternative", async () => {
    const code = [
      'import { useState } from "react";',
      "export function Probe({ on }: { on: boolean }) {",
      "  if (on) useState(0);",
      '  return <img src="/x.png" />;',
      "}",
    ].join("\n");
    expect(await refusals("app/components/probe.tsx", `${code}\n`)).toEqual([
      "react-hooks/rules-of-hooks@3",
      "jsx-a11y/alt-text@4",
    ]);
  });
});

describe("zod stays on the server (decision 032)", { timeout: 120_000 }, () => {
  const schemaImports = [
    'import { z } from "zod";',
    'import { getZodConstraint } from "@conform-to/zod/v4";',
    'import { exportSchema } from "~/utils/keep-schema";',
    'import { plainText } from "~/utils/validation";',
    'import { notificationsSchema } from "./schema";',
    'import { phoneAction } from "./server";',
  ];
  const using = `${schemaImports.join("\n")}\nexport const used = [z, getZodConstraint, exportSchema, plainText, notificationsSchema, phoneAction];\n`;
  const refusedAll = schemaImports.map((_, index) => `heirloom/no-schema-in-browser@${index + 1}`);

  it.each([
    ["a component", "app/components/probe.tsx"],
    ["a browser util", "app/utils/probe.ts"],
    ["a screen's own component", "app/routes/dashboard.notifications/probe.tsx"],
    ["a screen's intents", "app/routes/dashboard.notifications/intents.ts"],
    ["a route module's component", "app/routes/dashboard.notifications/route.tsx"],
    ["a flat route module", "app/routes/dashboard.probe.tsx"],
  ])("refuses a value import of zod or a schema in %s", async (_name, filePath) => {
    expect(await refusals(filePath, using, "heirloom/no-schema-in-browser")).toEqual(refusedAll);
  });

  it("allows `import type` anywhere, and a route module's action and loader to use a schema", async () => {
    const types =
      'import type { z } from "zod";\nimport type { ExportSummary } from "~/utils/keep-schema";\nexport type T = [z.ZodType, ExportSummary];\n';
    expect(await refusals("app/components/probe.tsx", types)).toEqual([]);
    const route = [
      'import { parseWithZod } from "@conform-to/zod/v4";',
      'import { notificationsSchema } from "./schema";',
      "export async function action({ request }: { request: Request }) {",
      "  return parseWithZod(await request.formData(), { schema: notificationsSchema });",
      "}",
      "export default function Page() {",
      "  return null;",
      "}",
    ].join("\n");
    expect(await refusals("app/routes/dashboard.notifications/route.tsx", `${route}\n`)).toEqual([]);
  });

  it("allows zod in the server's own files", async () => {
    const code = 'import { z } from "zod";\nexport const probe = z.string();\n';
    for (const filePath of [
      "app/utils/probe-schema.ts",
      "app/routes/dashboard.probe/schema.ts",
      "app/utils/probe.server.ts",
    ])
      expect(await refusals(filePath, code)).toEqual([]);
  });
});
