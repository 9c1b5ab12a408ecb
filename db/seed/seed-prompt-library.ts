import { type Kysely, sql } from "kysely";
import library from "./prompt-library.json";

type Library = {
  categories: { id: string; name: { en: string; hi: string }; prompts: { en: string; hi: string }[] }[];
};

/**
 * Writes the curated library (db/seed/prompt-library.json) idempotently: categories by id, prompts
 * by (category, position). Later edits of the JSON ship as a new migration that calls this again.
 */
export async function seedPromptLibrary(db: Kysely<unknown>) {
  const { categories } = library as Library;
  for (const [index, category] of categories.entries()) {
    await sql`
      INSERT INTO prompt_categories (id, position, name_en, name_hi)
      VALUES (${category.id}, ${index + 1}, ${category.name.en}, ${category.name.hi})
      ON CONFLICT (id) DO UPDATE SET position = EXCLUDED.position, name_en = EXCLUDED.name_en, name_hi = EXCLUDED.name_hi
    `.execute(db);
    for (const [position, prompt] of category.prompts.entries()) {
      await sql`
        INSERT INTO library_prompts (category_id, position, text_en, text_hi)
        VALUES (${category.id}, ${position + 1}, ${prompt.en}, ${prompt.hi})
        ON CONFLICT (category_id, position) DO UPDATE SET text_en = EXCLUDED.text_en, text_hi = EXCLUDED.text_hi
      `.execute(db);
    }
  }
}
