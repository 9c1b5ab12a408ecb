import type { DbOrTx } from "../../db/client";
import type { Language } from "../../db/schema";

export type LibraryCategory = { id: string; name: string; prompts: { id: number; text: string }[] };

/** The curated library in one language, categories in order (two queries, whatever its size). */
export async function getPromptLibrary(db: DbOrTx, language: Language): Promise<LibraryCategory[]> {
  const [categories, prompts] = await Promise.all([
    db
      .selectFrom("prompt_categories")
      .select(["id", language === "hi" ? "name_hi as name" : "name_en as name"])
      .orderBy("position")
      .execute(),
    db
      .selectFrom("library_prompts")
      .select(["id", "category_id", language === "hi" ? "text_hi as text" : "text_en as text"])
      .orderBy("category_id")
      .orderBy("position")
      .execute(),
  ]);
  return categories.map((category) => ({
    id: category.id,
    name: category.name,
    prompts: prompts.filter((prompt) => prompt.category_id === category.id).map(({ id, text }) => ({ id, text })),
  }));
}

/** Ticked library questions as queue items in the Storyteller's language, in the library's order. */
export async function libraryQueueItems(
  db: DbOrTx,
  ids: number[],
  language: Language,
): Promise<{ text: string; libraryPromptId: number }[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom("library_prompts")
    .select(["id", "text_en", "text_hi"])
    .where("id", "in", ids)
    .orderBy("category_id")
    .orderBy("position")
    .execute();
  return rows.map((p) => ({ text: language === "hi" ? p.text_hi : p.text_en, libraryPromptId: p.id }));
}

/**
 * Whether every id is a library question (ids already in int4's range: libraryPromptId). A stale
 * page or a hand-made post can name one that is not: its field's message, or null when all are.
 */
export async function checkLibraryPromptIds(db: DbOrTx, ids: number[]): Promise<{ libraryPromptIds: string[] } | null> {
  const unique = [...new Set(ids)];
  if (!unique.length) return null;
  const found = await db
    .selectFrom("library_prompts")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("id", "in", unique)
    .executeTakeFirstOrThrow();
  return Number(found.n) === unique.length ? null : { libraryPromptIds: ["storytellers:errors.libraryPromptUnknown"] };
}
