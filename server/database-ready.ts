import type pg from "pg";
import { StartupError } from "./startup-error";

/** The oldest PostgreSQL tested (Debian 12's; `npm run test:image` runs the image on it). */
export const OLDEST_POSTGRES = 15;
const WORKER_SCHEMA = "graphile_worker";

/**
 * Before migrating: a server new enough and a role that may make what migrating makes (tables in
 * public, graphile-worker's schema), so a database is never left half set up by a permission error.
 */
export async function ensureDatabaseReady(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{
    version: number;
    role: string;
    database: string;
    mayCreateSchema: boolean;
    mayCreateInPublic: boolean;
    workerSchema: boolean;
  }>(
    `select current_setting('server_version_num')::int as version, current_user as role,
       current_database() as database,
       has_database_privilege(current_database(), 'CREATE') as "mayCreateSchema",
       has_schema_privilege('public', 'CREATE') as "mayCreateInPublic",
       exists (select 1 from pg_namespace where nspname = $1) as "workerSchema"`,
    [WORKER_SCHEMA],
  );
  const { version, role, database, mayCreateSchema, mayCreateInPublic, workerSchema } = rows[0];
  if (version < OLDEST_POSTGRES * 10000)
    throw new StartupError(
      `PostgreSQL ${Math.floor(version / 10000)} is older than ${OLDEST_POSTGRES}, the oldest Heirloom supports: upgrade the server in DATABASE_URL`,
    );
  const missing = [
    ...(mayCreateInPublic ? [] : [`GRANT CREATE ON SCHEMA public TO ${role};`]),
    ...(mayCreateSchema || workerSchema
      ? []
      : [
          `GRANT CREATE ON DATABASE ${database} TO ${role}; (or make its schema first: CREATE SCHEMA ${WORKER_SCHEMA} AUTHORIZATION ${role};)`,
        ]),
  ];
  if (missing.length)
    throw new StartupError(
      `the role ${role} may not create what Heirloom's migrations make in the database ${database}; nothing was changed. ` +
        `Make the role the database's owner (ALTER DATABASE ${database} OWNER TO ${role};), or as a superuser: ${missing.join(" ")}`,
    );
}
