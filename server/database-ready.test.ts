import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { useTestDatabase } from "../tests/db";
import { withDatabase } from "../tests/setup/global-database";
import { ensureDatabaseReady } from "./database-ready";

const testDatabase = useTestDatabase();
const suffix = randomBytes(4).toString("hex");
const role = `limited_${suffix}`;
const empty = `heirloom_empty_${suffix}`;
const adminUrl = () => inject("adminDatabaseUrl");

async function asAdmin(database: string | undefined, ...statements: string[]) {
  const client = new pg.Client({ connectionString: database ? withDatabase(adminUrl(), database) : adminUrl() });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** ensureDatabaseReady as the limited role, on the given database; what it threw, if anything. */
async function readinessAs(database: string, pending = true) {
  const url = new URL(withDatabase(adminUrl(), database));
  url.username = role;
  url.password = "limited";
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  try {
    await ensureDatabaseReady(pool, { pending });
    return undefined;
  } catch (error) {
    return error as Error;
  } finally {
    await pool.end();
  }
}

beforeAll(async () => {
  await asAdmin(undefined, `create role ${role} login password 'limited'`, `create database ${empty}`);
});

afterAll(async () => {
  await asAdmin(undefined, `drop database if exists ${empty} with (force)`);
  await asAdmin(testDatabase.name, `drop owned by ${role}`);
  await asAdmin(undefined, `drop role if exists ${role}`);
});

describe("the database check before migrating", () => {
  it("passes for the database's owner", async () => {
    await expect(ensureDatabaseReady(testDatabase.pool, { pending: true })).resolves.toBeUndefined();
  });

  it("names the grants a role lacks on a new database, before anything is made", async () => {
    const error = await readinessAs(empty);
    expect(error?.message).toContain(`the role ${role} may not create`);
    expect(error?.message).toContain(`GRANT CREATE ON SCHEMA public TO ${role};`);
    expect(error?.message).toContain(`GRANT CREATE ON DATABASE ${empty} TO ${role};`);
    expect(error?.message).toContain(`CREATE SCHEMA graphile_worker AUTHORIZATION ${role};`);
  });

  it("passes once granted, or with graphile-worker's schema and pg_trgm made first", async () => {
    await asAdmin(empty, `grant create on schema public to ${role}`);
    expect((await readinessAs(empty))?.message).toContain(`GRANT CREATE ON DATABASE ${empty}`);
    await asAdmin(empty, `create schema graphile_worker authorization ${role}`);
    expect((await readinessAs(empty))?.message).toContain("CREATE EXTENSION pg_trgm;");
    await asAdmin(empty, `create extension pg_trgm`);
    expect(await readinessAs(empty)).toBeUndefined();
  });

  it("lets a role with data rights only start on a database that is fully migrated", async () => {
    await asAdmin(testDatabase.name, `grant usage on schema public to ${role}`);
    expect((await readinessAs(testDatabase.name, true))?.message).toContain("may not create");
    expect(await readinessAs(testDatabase.name, false)).toBeUndefined();
  });
});
