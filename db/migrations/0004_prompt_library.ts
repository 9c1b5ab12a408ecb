import { type Kysely, sql } from "kysely";
import { seedPromptLibrary } from "../seed/seed-prompt-library";

// The curated prompt library (seven categories, English and Hindi).
export async function up(db: Kysely<unknown>): Promise<void> {
  await seedPromptLibrary(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM library_prompts`.execute(db);
  await sql`DELETE FROM prompt_categories`.execute(db);
}
