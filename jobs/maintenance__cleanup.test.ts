import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Upload } from "@tus/utils";
import { expect, it } from "vitest";
import { createUploadStore } from "~/services/uploads.server";
import { makeTestContext } from "../tests/context";
import { useTestDatabase } from "../tests/db";
import { createAuthFlow, createEmailChange, createKeepsake, createSession, createUser } from "../tests/factories";
import { maintenanceCleanup } from "./maintenance__cleanup";

const database = useTestDatabase();

it("removes expired sign-ins, sessions, email changes and week-old unfinished uploads, and keeps live ones", async () => {
  const { db } = database;
  const [user, changing, waiting] = [await createUser(db), await createUser(db), await createUser(db)];
  const past = new Date(Date.now() - 60_000);
  const future = new Date(Date.now() + 60_000);
  await createAuthFlow(db, { email: "old@example.com", expiresAt: past });
  await createAuthFlow(db, { email: "live@example.com", expiresAt: future });
  await createSession(db, { userId: user.id, expiresAt: past });
  await createSession(db, { userId: user.id, expiresAt: future, lastSeenAt: new Date(Date.now() - 15 * 86_400_000) }); // idle too long
  const live = await createSession(db, { userId: user.id, expiresAt: future });
  await createEmailChange(db, { userId: changing.id, expiresAt: past });
  await createEmailChange(db, { userId: waiting.id, expiresAt: future });

  const { config } = makeTestContext(database, { DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "heirloom-cleanup-")) });
  const uploads = createUploadStore(config);
  const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000).toISOString();
  await uploads.create(new Upload({ id: "abandoned", size: 100, offset: 0, creation_date: eightDaysAgo }));
  await uploads.create(new Upload({ id: "recent", size: 100, offset: 0, creation_date: new Date().toISOString() }));

  await maintenanceCleanup({ db, config })({}, {} as never);

  expect((await db.selectFrom("auth_flows").select("email").execute()).map((r) => r.email)).toEqual([
    "live@example.com",
  ]);
  expect((await db.selectFrom("sessions").select("id_hash").execute()).map((r) => r.id_hash)).toEqual([live.id_hash]);
  expect((await db.selectFrom("email_changes").select("user_id").execute()).map((r) => r.user_id)).toEqual([
    waiting.id,
  ]);
  expect(existsSync(path.join(config.DATA_DIR, "uploads", "abandoned"))).toBe(false);
  expect(existsSync(path.join(config.DATA_DIR, "uploads", "recent"))).toBe(true);
});

it("removes the files of exports and books past their 7 days, and keeps live ones", async () => {
  const { db } = database;
  const context = makeTestContext(database);
  const user = await createUser(db);
  await context.storage.put("keepsakes/old/export.zip", new Uint8Array([1]), "application/zip");
  await context.storage.put("keepsakes/live/book.pdf", new Uint8Array([2]), "application/pdf");
  const old = await createKeepsake(db, {
    userId: user.id,
    storageKey: "keepsakes/old/export.zip",
    expiresAt: new Date(Date.now() - 1000),
  });
  const live = await createKeepsake(db, { userId: user.id, kind: "book", storageKey: "keepsakes/live/book.pdf" });

  await maintenanceCleanup(context)({}, {} as never);

  expect(await context.storage.head("keepsakes/old/export.zip")).toBeNull();
  expect(await context.storage.head("keepsakes/live/book.pdf")).toEqual({ size: 1 });
  const rows = await db.selectFrom("keepsakes").select(["id", "storage_key"]).orderBy("created_at").execute();
  expect(rows).toEqual(
    expect.arrayContaining([
      { id: old.id, storage_key: null },
      { id: live.id, storage_key: "keepsakes/live/book.pdf" },
    ]),
  );
});

it("forgets inbound texts' MessageSids and WhatsApp voice notes after 30 days and wrong answer codes after a day, and keeps newer ones", async () => {
  const { db } = database;
  const day = 86_400_000;
  const sid = (n: number) => `SM${String(n).padStart(32, "0")}`;
  await db
    .insertInto("inbound_messages")
    .values([
      { message_sid: sid(1), received_at: new Date(Date.now() - 31 * day) },
      { message_sid: sid(2), received_at: new Date(Date.now() - 29 * day) },
    ])
    .execute();
  await db
    .insertInto("whatsapp_voice_notes")
    .values([
      {
        message_sid: sid(3),
        media_sid: "ME1",
        phone_e164: "+919810000001",
        created_at: new Date(Date.now() - 31 * day),
      },
      {
        message_sid: sid(4),
        media_sid: "ME2",
        phone_e164: "+919810000001",
        created_at: new Date(Date.now() - 29 * day),
      },
    ])
    .execute();
  await db
    .insertInto("phone_code_failures")
    .values([
      {
        caller_e164: "+15555550111",
        called_e164: "+15555550100",
        code_hmac: "old",
        last_at: new Date(Date.now() - 25 * 3_600_000),
      },
      {
        caller_e164: "+15555550111",
        called_e164: "+15555550100",
        code_hmac: "new",
        last_at: new Date(Date.now() - 23 * 3_600_000),
      },
    ])
    .execute();

  await maintenanceCleanup(makeTestContext(database))({}, {} as never);

  expect((await db.selectFrom("inbound_messages").select("message_sid").execute()).map((r) => r.message_sid)).toEqual([
    sid(2),
  ]);
  expect(
    (await db.selectFrom("whatsapp_voice_notes").select("message_sid").execute()).map((r) => r.message_sid),
  ).toEqual([sid(4)]);
  expect((await db.selectFrom("phone_code_failures").select("code_hmac").execute()).map((r) => r.code_hmac)).toEqual([
    "new",
  ]);
});
