import type { LoaderFunctionArgs } from "@remix-run/node";
import { sql } from "kysely";

/** For load balancers and Docker's HEALTHCHECK: 200 when the database answers. */
export async function loader({ context }: LoaderFunctionArgs) {
  try {
    await sql`select 1`.execute(context.db);
    return new Response("ok", { headers: { "Cache-Control": "no-store", "Content-Type": "text/plain" } });
  } catch {
    return new Response("database unavailable", { status: 503, headers: { "Cache-Control": "no-store", "Content-Type": "text/plain" } });
  }
}
