import type { LoaderArgs } from "~/context.server";
import { databaseAnswers } from "~/models/health.server";

/** For load balancers and Docker's HEALTHCHECK: 200 when the database answers. */
export async function loader({ context }: LoaderArgs) {
  const headers = { "Cache-Control": "no-store", "Content-Type": "text/plain" };
  if (await databaseAnswers(context.db)) return new Response("ok", { headers });
  return new Response("database unavailable", { status: 503, headers });
}
