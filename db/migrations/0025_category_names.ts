import { type Kysely, sql } from "kysely";
import { seedPromptLibrary } from "../seed/seed-prompt-library";

// Category names a newcomer understands (issue 22: "About Us", "Musings" meant nothing); ids kept.
// The library is written again from db/seed/prompt-library.json, as its seed says later edits ship.
export async function up(db: Kysely<unknown>): Promise<void> {
  await seedPromptLibrary(db);
}

const oldNames: [string, string, string][] = [
  ["about-us", "About Us", "हमारे बारे में"],
  ["about-you", "About you", "आपके बारे में"],
  ["36-questions", "36 Questions", "36 प्रश्न"],
  ["growing-up", "Growing up", "बचपन"],
  ["last-thoughts", "Last Thoughts", "अंतिम विचार"],
  ["musings", "Musings", "चिंतन"],
  ["parenting", "Parenting", "माता-पिता बनना"],
];

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [id, en, hi] of oldNames)
    await sql`UPDATE prompt_categories SET name_en = ${en}, name_hi = ${hi} WHERE id = ${id}`.execute(db);
}
