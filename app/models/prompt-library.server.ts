import { MAX_LIBRARY_PICKS } from "~/utils/prompt-schema";
import type { DbOrTx } from "../../db/client";
import type { Language } from "../../db/schema";

/** A library question in the Storyteller's words, and in the reader's (`gloss`) when theirs differ. */
export type LibraryPrompt = { id: number; text: string; gloss?: string };
export type LibraryCategory = { id: string; name: string; prompts: LibraryPrompt[] };

type LibraryRow = { id: number; text_en: string; text_hi: string };

/** A question as a picker shows it: her words, and the reader's beside them when they read another language. */
const inWords = (prompt: LibraryRow, language: Language, reader: Language): LibraryPrompt => {
  const words = (lang: Language) => (lang === "hi" ? prompt.text_hi : prompt.text_en);
  return reader === language
    ? { id: prompt.id, text: words(language) }
    : { id: prompt.id, text: words(language), gloss: words(reader) };
};

/**
 * The curated library in the Storyteller's language, categories in order (named in the reader's),
 * two queries whatever its size.
 */
export async function getPromptLibrary(
  db: DbOrTx,
  language: Language,
  reader: Language = language,
): Promise<LibraryCategory[]> {
  const [categories, prompts] = await Promise.all([
    db
      .selectFrom("prompt_categories")
      .select(["id", reader === "hi" ? "name_hi as name" : "name_en as name"])
      .orderBy("position")
      .execute(),
    db
      .selectFrom("library_prompts")
      .select(["id", "category_id", "text_en", "text_hi"])
      .orderBy("category_id")
      .orderBy("position")
      .execute(),
  ]);
  return categories.map((category) => ({
    id: category.id,
    name: category.name,
    prompts: prompts
      .filter((prompt) => prompt.category_id === category.id)
      .map((prompt) => inWords(prompt, language, reader)),
  }));
}

/** What a newcomer is offered first: a few easy, warm questions (category id, position in it). */
export const STARTER_SET: readonly (readonly [string, number])[] = [
  ["growing-up", 1],
  ["about-you", 1],
  ["musings", 1],
  ["growing-up", 2],
  ["about-us", 1],
];

export type PickerPrompt = LibraryPrompt & { queued: boolean };
export type PickerCategory = { id: string; name: string; total: number; prompts: PickerPrompt[] };
export type PickerLibrary = {
  categories: PickerCategory[];
  /** Suggested first questions, only while the Storyteller has none queued or sent. */
  starter: PickerPrompt[];
  query: string;
  matches: number;
  /** The questions ticked so far (kept across searches), in the library's order. */
  picked: LibraryPrompt[];
};

/** Letter case and Unicode forms aside (Devanagari typed two ways is one word). */
const normalise = (text: string) => text.normalize("NFC").toLocaleLowerCase();

/**
 * The Add questions picker for one Storyteller: the library in their language, each question marked
 * `queued` when it (or its text) is already waiting in their queue; with `query`, only the questions
 * whose English or Hindi text holds it, and each category's total either way; `picked` are the ids
 * ticked before this search. Category names and glosses in the reader's language. Three queries.
 */
export async function getPickerLibrary(
  db: DbOrTx,
  storytellerId: string,
  language: Language,
  query: string,
  { picked = [], reader = language }: { picked?: number[]; reader?: Language } = {},
): Promise<PickerLibrary> {
  const [categories, prompts, mine] = await Promise.all([
    db
      .selectFrom("prompt_categories")
      .select(["id", reader === "hi" ? "name_hi as name" : "name_en as name"])
      .orderBy("position")
      .execute(),
    db
      .selectFrom("library_prompts")
      .select(["id", "category_id", "position", "text_en", "text_hi"])
      .orderBy("category_id")
      .orderBy("position")
      .execute(),
    db
      .selectFrom("prompts")
      .select(["library_prompt_id", "text", "sent_at"])
      .where("storyteller_id", "=", storytellerId)
      .execute(),
  ]);
  const waiting = mine.filter((p) => !p.sent_at);
  const queuedIds = new Set(waiting.map((p) => p.library_prompt_id));
  const queuedTexts = new Set(waiting.map((p) => normalise(p.text)));
  const words = normalise(query.trim());
  const toPickerPrompt = (prompt: (typeof prompts)[number]): PickerPrompt => {
    const shown = inWords(prompt, language, reader);
    return { ...shown, queued: queuedIds.has(prompt.id) || queuedTexts.has(normalise(shown.text)) };
  };
  const pickedIds = new Set(picked);
  const matching = words
    ? prompts.filter((p) => normalise(p.text_en).includes(words) || normalise(p.text_hi).includes(words))
    : prompts;
  const starter = mine.length
    ? []
    : STARTER_SET.flatMap(([category, position]) =>
        prompts.filter((p) => p.category_id === category && p.position === position).map(toPickerPrompt),
      );
  return {
    categories: categories.map((category) => ({
      id: category.id,
      name: category.name,
      total: prompts.filter((p) => p.category_id === category.id).length,
      prompts: matching.filter((p) => p.category_id === category.id).map(toPickerPrompt),
    })),
    starter: words ? [] : starter,
    query: query.trim(),
    matches: matching.length,
    picked: prompts.filter((p) => pickedIds.has(p.id)).map((p) => inWords(p, language, reader)),
  };
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

/** The library questions ticked in a form or a URL, as ids (a made-up or excess one is left out). */
export const tickedLibraryIds = (values: FormDataEntryValue[]) =>
  values
    .slice(0, MAX_LIBRARY_PICKS)
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0);
