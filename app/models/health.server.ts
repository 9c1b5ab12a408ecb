import { CompiledQuery } from "kysely";
import type { DbOrTx } from "../../db/client";

/** Compiled once: the check runs every few seconds per load balancer, and the benchmark's floor. */
const SELECT_ONE = CompiledQuery.raw("select 1");

/** Whether the database answers a trivial query (for /healthz). */
export async function databaseAnswers(db: DbOrTx): Promise<boolean> {
  try {
    await db.executeQuery(SELECT_ONE);
    return true;
  } catch {
    return false;
  }
}
