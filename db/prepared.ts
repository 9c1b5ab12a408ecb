import { type Compilable, CompiledQuery, type Kysely } from "kysely";
import type { DbOrTx } from "./client";
import type { Database } from "./schema";

/**
 * A query of one fixed shape, built and compiled by Kysely once, then sent with each call's values.
 * Building the tree and compiling it cost more CPU than PostgreSQL's answer for the queries every page
 * runs (the session lookup, the layout's counts): the same SQL text, every request (decision 056).
 *
 * `build` gets a stand-in for each named value; every stand-in must reach the SQL as a parameter
 * (checked at the first call: a value that does not reach the SQL throws). Single values only (the
 * types refuse a list): a list would change the SQL's shape.
 */
export function preparedQuery<Values extends Record<string, string | number | boolean | Date | null>, Row>(
  names: readonly (keyof Values & string)[],
  build: (db: Kysely<Database>, values: Values) => Compilable<Row>,
) {
  let compiled: { sql: string; query: CompiledQuery["query"]; slots: ({ name: keyof Values } | { fixed: unknown })[] };
  const compile = (db: DbOrTx) => {
    const standIns = Object.fromEntries(names.map((name) => [name, `\u0000prepared:${name}\u0000`]));
    const query = build(db, standIns as unknown as Values).compile();
    const slots = query.parameters.map((parameter) => {
      const name = names.find((candidate) => standIns[candidate] === parameter);
      return name ? { name } : { fixed: parameter };
    });
    const missing = names.filter((name) => !slots.some((slot) => "name" in slot && slot.name === name));
    if (missing.length) throw new Error(`preparedQuery: ${missing.join(", ")} did not become parameters`);
    if (query.sql.includes("\u0000")) throw new Error("preparedQuery: a value was inlined into the SQL");
    // A time computed while building (a `new Date()` in a helper) would be kept from the first call on.
    if (slots.some((slot) => "fixed" in slot && slot.fixed instanceof Date))
      throw new Error("preparedQuery: a date was built into the query; pass it as a named value");
    return { sql: query.sql, query: query.query, slots };
  };
  /** The rows for these values. */
  return async (db: DbOrTx, values: Values): Promise<Row[]> => {
    compiled ??= compile(db);
    const parameters = compiled.slots.map((slot) => ("name" in slot ? values[slot.name] : slot.fixed));
    const { rows } = await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, parameters));
    return rows;
  };
}
