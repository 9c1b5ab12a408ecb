import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import pg from "pg";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../tests/db";
import type { DbOrTx } from "./client";

// db/schema.ts is written by hand; this holds it to the migrated database, both ways: every table and
// column the migrations make is typed, with the type pg hands back (through db/client.ts's parsers),
// the same nullability, the same allowed values, and no insert the types allow is refused for a
// missing value. kysely-codegen would generate the file instead; it is not a dependency.

const database = useTestDatabase();

/** Tables that belong to the migrator, not to the app. graphile-worker keeps to its own schema. */
const NOT_APP_TABLES = ["kysely_migration", "kysely_migration_lock"];

type JsKind = "string" | "number" | "boolean" | "Date" | "object" | "bigint" | "unknown";

type DbColumn = {
  table: string;
  column: string;
  pgType: string;
  /** What node-postgres returns for it, with the app's type parsers in place. */
  kind: JsKind;
  nullable: boolean;
  hasDefault: boolean;
  /** The only values it takes: an enum's labels, or a one-column `CHECK (col IN (...))`. */
  labels: string[] | null;
};

type TsKind = JsKind | "undefined" | "any";

type TsColumn = {
  table: string;
  column: string;
  text: string;
  kinds: Set<TsKind>;
  literals: string[];
  nullable: boolean;
  optionalOnInsert: boolean;
};

// One value per type as PostgreSQL sends it in text form; the parser node-postgres would run on it
// tells what the app gets back. Types not listed are text-like (uuid, text, varchar, citext, enums).
const SAMPLE_TEXT: Record<string, string> = {
  int2: "1",
  int4: "1",
  int8: "1",
  oid: "1",
  float4: "1.5",
  float8: "1.5",
  numeric: "1.5",
  bool: "t",
  date: "2026-01-01",
  timestamp: "2026-01-01 10:00:00",
  timestamptz: "2026-01-01 10:00:00+00",
  interval: "01:00:00",
  json: "{}",
  jsonb: "{}",
};

function kindOf(value: unknown): JsKind {
  if (value instanceof Date) return "Date";
  if (typeof value === "object" && value !== null) return "object";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return typeof value as JsKind;
  return "unknown";
}

/** `CHECK ((status = ANY (ARRAY['a'::text, 'b'::text])))` → ["a", "b"]; anything else → null. */
function checkedLabels(definition: string, column: string): string[] | null {
  const match = /^CHECK \(\(\(?(\w+)\)?(?:::[\w ]+)? = ANY \(\(?ARRAY\[(.*)\](?:\)::[\w ]+\[\])?\)\)\)$/.exec(
    definition,
  );
  if (!match || match[1] !== column) return null;
  return [...match[2].matchAll(/'((?:[^']|'')*)'::/g)].map((m) => m[1].replaceAll("''", "'"));
}

async function databaseColumns(db: DbOrTx): Promise<DbColumn[]> {
  const { rows: columns } = await sql<{
    table: string;
    column: string;
    nullable: string;
    default: string | null;
    identity: string;
    generated: string;
    udt: string;
    type_oid: number;
    typtype: string;
    typcategory: string;
  }>`
    select c.table_name as table, c.column_name as column, c.is_nullable as nullable, c.column_default as default,
      c.is_identity as identity, c.is_generated as generated, c.udt_name as udt, t.oid::int as type_oid, t.typtype, t.typcategory
    from information_schema.columns c
    join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name and tb.table_type = 'BASE TABLE'
    join pg_type t on t.typname = c.udt_name and t.typnamespace = c.udt_schema::regnamespace
    where c.table_schema = 'public' and c.table_name <> all(${NOT_APP_TABLES})
    order by c.table_name, c.ordinal_position`.execute(db);
  const { rows: enums } = await sql<{ type_oid: number; labels: string[] }>`
    select enumtypid::int as type_oid, array_agg(enumlabel::text order by enumsortorder) as labels from pg_enum group by enumtypid`.execute(
    db,
  );
  const { rows: checks } = await sql<{ table: string; column: string; definition: string }>`
    select cl.relname as table, a.attname as column, pg_get_constraintdef(k.oid) as definition
    from pg_constraint k
    join pg_class cl on cl.oid = k.conrelid
    join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
    where k.contype = 'c' and k.connamespace = 'public'::regnamespace and array_length(k.conkey, 1) = 1`.execute(db);

  return columns.map((c) => {
    const sample = c.typcategory === "A" ? "{}" : (SAMPLE_TEXT[c.udt] ?? "x");
    const labels =
      enums.find((e) => e.type_oid === c.type_oid)?.labels ??
      checks
        .map((k) => (k.table === c.table && k.column === c.column ? checkedLabels(k.definition, c.column) : null))
        .find(Boolean) ??
      null;
    return {
      table: c.table,
      column: c.column,
      pgType: c.udt,
      kind: kindOf(pg.types.getTypeParser(c.type_oid, "text")(sample)),
      nullable: c.nullable === "YES",
      hasDefault: c.default !== null || c.identity === "YES" || c.generated === "ALWAYS",
      labels,
    };
  });
}

let schemaCache: TsColumn[] | undefined;

/** The `Database` interface of db/schema.ts as the TypeScript compiler sees it (aliases, Generated<>, ColumnType<> resolved). */
function schemaColumns(): TsColumn[] {
  if (schemaCache) return schemaCache;
  const file = fileURLToPath(new URL("./schema.ts", import.meta.url));
  const configFile = ts.findConfigFile(file, ts.sys.fileExists)!;
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, fileURLToPath(new URL("..", import.meta.url)));
  const program = ts.createProgram([file], { ...options, types: [], noEmit: true });
  const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(file));
  if (diagnostics.length)
    throw new Error(
      `db/schema.ts does not compile: ${ts.flattenDiagnosticMessageText(diagnostics[0].messageText, "\n")}`,
    );
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const declaration = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "Database",
  );
  if (!declaration) throw new Error("db/schema.ts has no `interface Database`");

  const typeOf = (symbol: ts.Symbol) => checker.getTypeOfSymbolAtLocation(symbol, declaration);
  const members = (type: ts.Type) => (type.isUnion() ? type.types : [type]);
  const columns: TsColumn[] = [];
  for (const table of checker.getTypeAtLocation(declaration.name).getProperties()) {
    for (const column of typeOf(table).getProperties()) {
      const type = typeOf(column);
      // Kysely's ColumnType<Select, Insert, Update> (and Generated<T>) carries its parts as phantom properties.
      const selectSymbol = type.getProperty("__select__");
      const insertSymbol = type.getProperty("__insert__");
      const select = selectSymbol ? typeOf(selectSymbol) : type;
      const insert = insertSymbol ? typeOf(insertSymbol) : type;
      const kinds = new Set<TsKind>();
      const literals: string[] = [];
      let nullable = false;
      for (const member of members(select)) {
        const flags = member.flags;
        if (flags & ts.TypeFlags.Null) nullable = true;
        else if (flags & ts.TypeFlags.Undefined) kinds.add("undefined");
        else if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown))
          kinds.add(flags & ts.TypeFlags.Any ? "any" : "unknown");
        else if (member.isStringLiteral()) {
          kinds.add("string");
          literals.push(member.value);
        } else if (flags & ts.TypeFlags.StringLike) kinds.add("string");
        else if (flags & ts.TypeFlags.NumberLike) kinds.add("number");
        else if (flags & ts.TypeFlags.BooleanLike) kinds.add("boolean");
        else if (flags & ts.TypeFlags.BigIntLike) kinds.add("bigint");
        else if (member.getSymbol()?.getName() === "Date") kinds.add("Date");
        else kinds.add("object");
      }
      const optionalOnInsert = members(insert).some((m) => m.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null));
      columns.push({
        table: table.getName(),
        column: column.getName(),
        text: checker.typeToString(select),
        kinds,
        literals,
        nullable,
        optionalOnInsert,
      });
    }
  }
  schemaCache = columns;
  return columns;
}

const quoted = (labels: string[]) => labels.map((l) => `"${l}"`).join(" | ");

/** Every disagreement, one line each, starting with the table.column it is about. */
function compareSchema(dbColumns: DbColumn[], tsColumns: TsColumn[]): string[] {
  const problems: string[] = [];
  const dbTables = new Set(dbColumns.map((c) => c.table));
  const tsTables = new Set(tsColumns.map((c) => c.table));
  for (const table of dbTables)
    if (!tsTables.has(table))
      problems.push(`${table}: table in the migrated database but not in db/schema.ts's Database`);
  for (const table of tsTables)
    if (!dbTables.has(table)) problems.push(`${table}: in db/schema.ts's Database but no migration creates it`);

  for (const db of dbColumns) {
    if (!tsTables.has(db.table)) continue;
    const name = `${db.table}.${db.column}`;
    const typed = tsColumns.find((c) => c.table === db.table && c.column === db.column);
    if (!typed) {
      problems.push(
        `${name}: column in the migrated database (${db.pgType}${db.nullable ? ", nullable" : ""}) but not in db/schema.ts`,
      );
      continue;
    }
    const kinds = [...typed.kinds];
    const compatible = kinds.length === 1 && (kinds[0] === db.kind || (db.kind === "object" && kinds[0] === "unknown"));
    if (!compatible)
      problems.push(`${name}: ${db.pgType} comes back as ${db.kind}, but db/schema.ts types it ${typed.text}`);
    if (db.nullable && !typed.nullable)
      problems.push(`${name}: nullable in the database, but db/schema.ts types it ${typed.text} (no null)`);
    if (!db.nullable && typed.nullable)
      problems.push(`${name}: NOT NULL in the database, but db/schema.ts types it ${typed.text}`);
    if (db.labels && !typed.literals.length)
      problems.push(`${name}: the database allows only ${quoted(db.labels)}, but db/schema.ts types it ${typed.text}`);
    if (db.labels && typed.literals.length) {
      const missing = db.labels.filter((label) => !typed.literals.includes(label));
      const extra = typed.literals.filter((label) => !db.labels!.includes(label));
      if (missing.length)
        problems.push(`${name}: the database also allows ${quoted(missing)}, which db/schema.ts's type lacks`);
      if (extra.length) problems.push(`${name}: db/schema.ts allows ${quoted(extra)}, which the database refuses`);
    }
    if (!db.labels && typed.literals.length)
      problems.push(`${name}: db/schema.ts allows only ${typed.text}, but the database takes any ${db.pgType}`);
    if (typed.optionalOnInsert && !typed.nullable && !db.nullable && !db.hasDefault)
      problems.push(`${name}: db/schema.ts lets an insert leave it out, but it is NOT NULL with no default`);
  }
  for (const typed of tsColumns) {
    if (dbTables.has(typed.table) && !dbColumns.some((c) => c.table === typed.table && c.column === typed.column)) {
      problems.push(`${typed.table}.${typed.column}: in db/schema.ts but no migration creates the column`);
    }
  }
  return problems;
}

/** Runs `work` against a changed schema and undoes the change (PostgreSQL's DDL is transactional). */
async function inRolledBackTransaction<T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> {
  const rollback = Symbol("rollback");
  let result: T | undefined;
  await database.db
    .transaction()
    .execute(async (tx) => {
      result = await work(tx);
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  return result as T;
}

describe("db/schema.ts", () => {
  it("types every table and column the migrations make, as pg returns them, and nothing else", async () => {
    const dbColumns = await databaseColumns(database.db);
    expect(dbColumns.length).toBeGreaterThan(100); // the query found the app's tables
    expect(compareSchema(dbColumns, schemaColumns())).toEqual([]);
  });

  it("would notice a migration the types were not updated for", async () => {
    const problems = await inRolledBackTransaction(async (tx) => {
      await sql`alter table answers add column waveform jsonb`.execute(tx);
      await sql`alter table users alter column email drop not null`.execute(tx);
      await sql`alter table sessions alter column user_agent set not null`.execute(tx);
      await sql`alter table prompts alter column queue_position type bigint`.execute(tx);
      await sql`alter table contact_messages drop column language`.execute(tx);
      await sql`alter table users alter column last_name drop default`.execute(tx);
      await sql`alter table deliveries drop constraint deliveries_status_check`.execute(tx);
      await sql`alter table deliveries add check (status in ('pending', 'sending', 'sent', 'failed', 'cancelled', 'bounced'))`.execute(
        tx,
      );
      await sql`create table answer_tags (answer_id uuid not null, tag text not null)`.execute(tx);
      return compareSchema(await databaseColumns(tx), schemaColumns());
    });
    expect(problems.sort()).toEqual(
      [
        "answer_tags: table in the migrated database but not in db/schema.ts's Database",
        "answers.waveform: column in the migrated database (jsonb, nullable) but not in db/schema.ts",
        "users.email: nullable in the database, but db/schema.ts types it string (no null)",
        "sessions.user_agent: NOT NULL in the database, but db/schema.ts types it string | null",
        "prompts.queue_position: int8 comes back as string, but db/schema.ts types it number",
        "contact_messages.language: in db/schema.ts but no migration creates the column",
        "users.last_name: db/schema.ts lets an insert leave it out, but it is NOT NULL with no default",
        `deliveries.status: the database also allows "bounced", which db/schema.ts's type lacks`,
      ].sort(),
    );
  });

  it("reads an enum type's labels from pg_enum", async () => {
    const problems = await inRolledBackTransaction(async (tx) => {
      await sql`create type group_role as enum ('owner', 'collaborator', 'viewer')`.execute(tx);
      await sql`alter table group_members drop constraint group_members_role_check`.execute(tx);
      await sql`alter table group_members alter column role type group_role using role::group_role`.execute(tx);
      return compareSchema(await databaseColumns(tx), schemaColumns());
    });
    expect(problems).toEqual([
      `group_members.role: the database also allows "viewer", which db/schema.ts's type lacks`,
    ]);
  });
});
