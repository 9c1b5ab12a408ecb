import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { formRequest, makeTestContext, routeArgs } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { action } from "./_public.contact-us";

const database = useTestDatabase();

const callAction = (fields: Record<string, string>, clientIp = "192.0.2.1", headers: Record<string, string> = {}) =>
  action({
    request: formRequest("/contact-us", fields, headers),
    context: { ...makeTestContext(database), clientIp },
    params: {},
    ...routeArgs,
  });

const valid = { name: "Meera", email: "meera@example.com", message: "I love this idea, thank you for building it." };

describe("contact form action", () => {
  it("stores the message, queues the email to CONTACT_EMAIL and redirects with a toast", async () => {
    const response = (await callAction(valid, "192.0.2.10")) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/contact-us");
    expect(response.headers.get("Set-Cookie")).toMatch(/^toast=/);

    const stored = await database.db
      .selectFrom("contact_messages")
      .selectAll()
      .where("email", "=", "meera@example.com")
      .execute();
    expect(stored).toHaveLength(1);
    const email = await database.db
      .selectFrom("outbox_messages")
      .selectAll()
      .where("text_body", "like", `%${stored[0].id}%`)
      .executeTakeFirstOrThrow();
    expect(email).toMatchObject({ channel: "email", to_address: "contact@localhost", status: "queued" });
    expect(email.headers).toEqual({ "Reply-To": "meera@example.com" });
    const jobs = await sql<{
      n: string;
    }>`select count(*) as n from graphile_worker.jobs where task_identifier = 'outbox__send'`.execute(database.db);
    expect(Number(jobs.rows[0].n)).toBeGreaterThan(0);
  });

  it("returns field errors as translation keys and stores nothing", async () => {
    const before = await database.db
      .selectFrom("contact_messages")
      .select(sql<string>`count(*)`.as("n"))
      .executeTakeFirstOrThrow();
    const result = (await callAction(
      { name: "", email: "not-an-email", message: "short" },
      "192.0.2.11",
    )) as unknown as { data: { result: { error: Record<string, string[]> } }; init: { status: number } };
    expect(result.init.status).toBe(400);
    expect(result.data.result.error).toEqual({
      name: ["validation.required"],
      email: ["validation.emailInvalid"],
      message: ["validation.tooShort"],
    });
    const after = await database.db
      .selectFrom("contact_messages")
      .select(sql<string>`count(*)`.as("n"))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it("refuses a name with a line break, which would reach the email's subject", async () => {
    const result = (await callAction(
      { ...valid, name: "Meera\r\nBcc: victim@example.com" },
      "192.0.2.12",
    )) as unknown as { data: { result: { error: Record<string, string[]> } }; init: { status: number } };
    expect(result.init.status).toBe(400);
    expect(result.data.result.error).toEqual({ name: ["validation.singleLine"] });
  });

  it("says email is required when it is missing", async () => {
    const result = (await callAction({ name: "A", message: "Long enough message" }, "192.0.2.12")) as unknown as {
      data: { result: { error: Record<string, string[]> } };
    };
    expect(result.data.result.error.email).toEqual(["validation.emailRequired"]);
  });

  it("does not count forms with mistakes against the limit", async () => {
    for (let i = 0; i < 8; i++) await callAction({ name: "", email: "x", message: "" }, "192.0.2.50");
    const ok = (await callAction(valid, "192.0.2.50")) as Response;
    expect(ok.status).toBe(302);
  });

  it("refuses a sixth message from one address within the hour", async () => {
    for (let i = 0; i < 5; i++) {
      const ok = (await callAction({ ...valid, email: `r${i}@example.com` }, "192.0.2.99")) as Response;
      expect(ok.status).toBe(302);
    }
    const refused = (await callAction({ ...valid, email: "r6@example.com" }, "192.0.2.99")) as unknown as {
      data: { result: { error: Record<string, string[]> } };
      init: { status: number; headers: Record<string, string> };
    };
    expect(refused.init.status).toBe(429);
    expect(refused.data.result.error[""]).toEqual(["errors.rateLimited"]);
    const stored = await database.db
      .selectFrom("contact_messages")
      .select("id")
      .where("email", "=", "r6@example.com")
      .execute();
    expect(stored).toEqual([]);
  });
});
