import { runOnce } from "graphile-worker";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { MailService } from "~/services/mail.server";
import { queueEmail, queueSms } from "~/services/outbox.server";
import { createOutboxSms } from "~/services/sms.server";
import { makeTestContext } from "../tests/context";
import { useTestDatabase } from "../tests/db";
import { waitForJobsToSettle } from "../tests/jobs";
import { createTaskList } from "./task-list";

const database = useTestDatabase();

const jobCount = async () =>
  Number(
    (
      await sql<{
        n: string;
      }>`select count(*) as n from graphile_worker.jobs where task_identifier = 'outbox__send'`.execute(database.db)
    ).rows[0].n,
  );

/** A provider that remembers what it accepted, and can say so after a crash (as Postmark's search does). */
function recordingMail(): MailService & { sent: { id: string; to: string; subject: string }[] } {
  const sent: { id: string; to: string; subject: string }[] = [];
  return {
    name: "postmark",
    sent,
    send: async (m) => (sent.push({ id: m.id, to: m.to, subject: m.subject }), `pm-${m.id}`),
    findSent: async (m) => (sent.some((s) => s.id === m.id) ? `pm-${m.id}` : null),
  };
}

async function runJobs(mail: MailService) {
  const { config, storage } = makeTestContext(database);
  await runOnce({
    pgPool: database.pool,
    taskList: createTaskList({ db: database.db, config, storage, mail, sms: createOutboxSms({ print: false }) }),
  });
  await waitForJobsToSettle(database.db);
}

describe("queueEmail and the outbox__send task", () => {
  it("leaves no message and no job when the surrounding transaction rolls back", async () => {
    const before = await jobCount();
    await expect(
      database.db.transaction().execute(async (tx) => {
        await queueEmail(tx, { to: "rolled@example.com", subject: "Hi", text: "Hello" });
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(await jobCount()).toBe(before);
    const rows = await database.db
      .selectFrom("outbox_messages")
      .select("id")
      .where("to_address", "=", "rolled@example.com")
      .execute();
    expect(rows).toEqual([]);
  });

  it("sends a queued email once through the configured provider and forgets its body", async () => {
    const mail = recordingMail();
    const id = await queueEmail(database.db, {
      to: "ann@example.com",
      subject: "Your code",
      text: "Code 123456",
      headers: { "X-Test": "1" },
    });
    await runJobs(mail);
    await runJobs(mail); // nothing left to do: no second send
    expect(mail.sent).toEqual([{ id, to: "ann@example.com", subject: "Your code" }]);
    const row = await database.db
      .selectFrom("outbox_messages")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: "sent",
      provider: "postmark",
      provider_message_id: `pm-${id}`,
      text_body: "",
      html_body: null,
    });
  });

  it("keeps the body for the built-in outbox, which is where people read it", async () => {
    const id = await queueSms(database.db, { to: "+15555550123", text: "Reply YES" });
    await runJobs(recordingMail());
    const row = await database.db
      .selectFrom("outbox_messages")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "sent", provider: "outbox", text_body: "Reply YES" });
  });

  it("reconciles a message the provider took before the worker died, without sending it again", async () => {
    const mail = recordingMail();
    const id = await queueEmail(database.db, { to: "crashed@example.com", subject: "Code", text: "123456" });
    // As if a worker claimed it, the provider accepted it, and the worker died before recording that.
    await database.db
      .updateTable("outbox_messages")
      .set({ status: "sending", claimed_at: new Date() })
      .where("id", "=", id)
      .execute();
    mail.sent.push({ id, to: "crashed@example.com", subject: "Code" });
    await runJobs(mail);
    expect(mail.sent).toHaveLength(1);
    const row = await database.db
      .selectFrom("outbox_messages")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "sent", provider_message_id: `pm-${id}` });
  });

  it("sends a message whose worker died before the provider took it, once", async () => {
    const mail = recordingMail();
    const id = await queueEmail(database.db, { to: "early-crash@example.com", subject: "Code", text: "123456" });
    await database.db
      .updateTable("outbox_messages")
      .set({ status: "sending", claimed_at: new Date() })
      .where("id", "=", id)
      .execute();
    await runJobs(mail);
    await runJobs(mail);
    expect(mail.sent.map((m) => m.id)).toEqual([id]);
  });

  it("records a provider failure and leaves the message for a retry that asks the provider first", async () => {
    const failing: MailService = {
      name: "postmark",
      send: async () => Promise.reject(new Error("provider down")),
      findSent: async () => null,
    };
    const id = await queueEmail(database.db, { to: "retry@example.com", subject: "Hi", text: "Hello" });
    const { allowConsoleErrors } = await import("../tests/setup/fail-on-console-error");
    allowConsoleErrors(5); // graphile-worker logs the failed attempt
    await runJobs(failing);
    const row = await database.db
      .selectFrom("outbox_messages")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "sending", error: "provider down" });
    const job = await sql<{
      attempts: number;
      last_error: string;
    }>`select attempts, last_error from graphile_worker.jobs where task_identifier = 'outbox__send' and last_error like 'provider down%'`.execute(
      database.db,
    );
    expect(job.rows[0].attempts).toBe(1);
  });
});
