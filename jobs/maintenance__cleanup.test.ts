import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Upload } from "@tus/utils";
import { expect, it } from "vitest";
import { createUploadStore } from "~/services/uploads.server";
import { makeTestContext } from "../tests/context";
import { useTestDatabase } from "../tests/db";
import { maintenanceCleanup } from "./maintenance__cleanup";

const database = useTestDatabase();

it("removes expired sign-ins, sessions, email changes and week-old unfinished uploads, and keeps live ones", async () => {
  const { db } = database;
  const user = await db.insertInto("users").values({ email: "c@example.com", first_name: "C", nickname: "cc" }).returning("id").executeTakeFirstOrThrow();
  const past = new Date(Date.now() - 60_000);
  const future = new Date(Date.now() + 60_000);
  await db.insertInto("auth_flows").values([
    { id: "old", data: "{}", expires_at: past },
    { id: "live", data: "{}", expires_at: future },
  ]).execute();
  await db.insertInto("sessions").values([
    { id_hash: "expired", user_id: user.id, expires_at: past },
    { id_hash: "idle", user_id: user.id, expires_at: future, last_seen_at: new Date(Date.now() - 15 * 86_400_000) },
    { id_hash: "live", user_id: user.id, expires_at: future },
  ]).execute();

  const { config } = makeTestContext(database, { DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "heirloom-cleanup-")) });
  const uploads = createUploadStore(config);
  const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000).toISOString();
  await uploads.create(new Upload({ id: "abandoned", size: 100, offset: 0, creation_date: eightDaysAgo }));
  await uploads.create(new Upload({ id: "recent", size: 100, offset: 0, creation_date: new Date().toISOString() }));

  await maintenanceCleanup({ db, config })({}, {} as never);

  expect((await db.selectFrom("auth_flows").select("id").execute()).map((r) => r.id)).toEqual(["live"]);
  expect((await db.selectFrom("sessions").select("id_hash").execute()).map((r) => r.id_hash)).toEqual(["live"]);
  expect(existsSync(path.join(config.DATA_DIR, "uploads", "abandoned"))).toBe(false);
  expect(existsSync(path.join(config.DATA_DIR, "uploads", "recent"))).toBe(true);
});
