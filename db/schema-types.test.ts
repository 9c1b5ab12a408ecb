import { readFile } from "node:fs/promises";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../tests/db";
import { createAnswer, createPrompt, createStoryteller, createUser } from "../tests/factories";
import type { DbOrTx } from "./client";
import { GENERATED_FILE, generateDatabaseTypes } from "./types-codegen";

// db/database.generated.ts is made by `npm run db:types`; this holds the committed file to what the
// migrations make now, so a migration without a regeneration fails here.

const database = useTestDatabase();

/** Runs `work` against a changed schema and undoes the change (PostgreSQL's DDL is transactional). */
async function inRolledBackTransaction<T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> {
  const rollback = Symbol("rollback");
  let result: T | undefined;
  await database.db
    .transaction()
    .execute(async (tx) => {
      result = await work(tx);
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  return result as T;
}

/** One table's interface from the generated text, `export interface Name { ... }`. */
const tableText = (text: string, name: string) => new RegExp(`export interface ${name} \\{[^}]*\\}`).exec(text)?.[0];

describe("db/database.generated.ts", () => {
  it("is what the migrations make", async () => {
    const committed = await readFile(GENERATED_FILE, "utf8");
    const current = await generateDatabaseTypes(database.db);
    expect(current, "db/database.generated.ts is out of date with db/migrations: run npm run db:types").toBe(committed);
  });

  it("changes with a migration, down to a CHECK's allowed values and nullability", async () => {
    const text = await inRolledBackTransaction(async (tx) => {
      await sql`alter table answers add column waveform jsonb`.execute(tx);
      await sql`alter table sessions alter column user_agent set not null`.execute(tx);
      await sql`alter table prompts alter column queue_position type bigint`.execute(tx);
      await sql`alter table deliveries drop constraint deliveries_status_check`.execute(tx);
      await sql`alter table deliveries add check (status in ('pending', 'sending', 'sent', 'failed', 'cancelled', 'bounced'))`.execute(
        tx,
      );
      await sql`alter table call_consents alter column source drop not null`.execute(tx);
      await sql`create table answer_tags (answer_id uuid not null, tag text not null)`.execute(tx);
      return generateDatabaseTypes(tx);
    });
    expect(tableText(text, "Answers")).toContain("waveform: Json | null;");
    expect(tableText(text, "Sessions")).toContain("user_agent: string;");
    expect(tableText(text, "Prompts")).toContain("queue_position: Int8;");
    expect(tableText(text, "Deliveries")).toContain(
      `status: Generated<"pending" | "sending" | "sent" | "failed" | "cancelled" | "bounced">;`,
    );
    expect(tableText(text, "CallConsents")).toContain(`source: "owner" | "call" | "text" | null;`);
    expect(tableText(text, "AnswerTags")).toContain("tag: string;");
  });

  it("types columns as the app's pg client returns them: dates and bigints as strings", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
    const prompt = await createPrompt(database.db, { storytellerId: storyteller.id });
    await createAnswer(database.db, { promptId: prompt.id, storytellerId: storyteller.id });
    const text = await readFile(GENERATED_FILE, "utf8");

    const schedule = await database.db
      .selectFrom("schedules")
      .select("first_prompt_date")
      .where("storyteller_id", "=", storyteller.id)
      .executeTakeFirstOrThrow();
    expect(tableText(text, "Schedules")).toContain("first_prompt_date: string;");
    expect(schedule.first_prompt_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const answer = await database.db
      .selectFrom("answers")
      .select(["byte_size", "created_at"])
      .where("prompt_id", "=", prompt.id)
      .executeTakeFirstOrThrow();
    // Null for a written answer (a reply by email), which has no recording.
    expect(tableText(text, "Answers")).toMatch(/byte_size: Int8 \| null;[^]*created_at: Generated<Timestamp>;/);
    expect(typeof answer.byte_size).toBe("string");
    expect(answer.created_at).toBeInstanceOf(Date);
  });
});
