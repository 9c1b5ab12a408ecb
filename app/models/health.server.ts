import { sql } from "kysely";
import type { DbOrTx } from "../../db/client";

/** Whether the database answers a trivial query (for /healthz). */
export async function databaseAnswers(db: DbOrTx): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
