import type { DbOrTx } from "../../db/client";
import type { Language } from "../../db/schema";

export type LibraryCategory = { id: string; name: string; prompts: { id: number; text: string }[] };

/** The curated library in one language, categories in order (two queries, whatever its size). */
export async function getPromptLibrary(db: DbOrTx, language: Language): Promise<LibraryCategory[]> {
  const [categories, prompts] = await Promise.all([
    db.selectFrom("prompt_categories").select(["id", language === "hi" ? "name_hi as name" : "name_en as name"]).orderBy("position").execute(),
    db.selectFrom("library_prompts").select(["id", "category_id", language === "hi" ? "text_hi as text" : "text_en as text"]).orderBy("category_id").orderBy("position").execute(),
  ]);
  return categories.map((category) => ({
    id: category.id,
    name: category.name,
    prompts: prompts.filter((prompt) => prompt.category_id === category.id).map(({ id, text }) => ({ id, text })),
  }));
}
