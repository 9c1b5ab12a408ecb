import type pg from "pg";
import { StartupError } from "./startup-error";

/** The oldest PostgreSQL tested (Debian 12's; `npm run test:image` runs the image on it). */
export const OLDEST_POSTGRES = 15;
const WORKER_SCHEMA = "graphile_worker";

/**
 * Before migrating: a server new enough and, when there is something to make (`pending`
 * migrations, or graphile-worker's schema), a role that may make it, so a database is never left
 * half set up by a permission error. A fully migrated database needs only its data rights.
 */
export async function ensureDatabaseReady(pool: pg.Pool, { pending }: { pending: boolean }): Promise<void> {
  const { rows } = await pool.query<{
    version: number;
    role: string;
    database: string;
    mayCreateSchema: boolean;
    mayCreateInPublic: boolean;
    workerSchema: boolean;
    trigrams: boolean;
  }>(
    `select current_setting('server_version_num')::int as version, quote_ident(current_user) as role,
       quote_ident(current_database()) as database,
       has_database_privilege(current_database(), 'CREATE') as "mayCreateSchema",
       has_schema_privilege('public', 'CREATE') as "mayCreateInPublic",
       exists (select 1 from pg_namespace where nspname = $1) as "workerSchema",
       exists (select 1 from pg_extension where extname = 'pg_trgm') as "trigrams"`,
    [WORKER_SCHEMA],
  );
  const { version, role, database, mayCreateSchema, mayCreateInPublic, workerSchema, trigrams } = rows[0];
  // CREATE on the database makes graphile-worker's schema and the pg_trgm extension (migration 0020).
  const needsDatabaseCreate = !workerSchema || (pending && !trigrams);
  if (version < OLDEST_POSTGRES * 10000)
    throw new StartupError(
      `PostgreSQL ${Math.floor(version / 10000)} is older than ${OLDEST_POSTGRES}, the oldest Heirloom supports: upgrade the server in DATABASE_URL`,
    );
  const missing = [
    ...(mayCreateInPublic || !pending ? [] : [`GRANT CREATE ON SCHEMA public TO ${role};`]),
    ...(mayCreateSchema || !needsDatabaseCreate
      ? []
      : [
          `GRANT CREATE ON DATABASE ${database} TO ${role}; (or make what it would make first: CREATE SCHEMA ${WORKER_SCHEMA} AUTHORIZATION ${role}; CREATE EXTENSION pg_trgm;)`,
        ]),
  ];
  if (missing.length)
    throw new StartupError(
      `the role ${role} may not create what Heirloom's migrations make in the database ${database}; nothing was changed. ` +
        `Make the role the database's owner (ALTER DATABASE ${database} OWNER TO ${role};), or as a superuser: ${missing.join(" ")}`,
    );
}
