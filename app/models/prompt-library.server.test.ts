import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../../tests/db";
import { createStoryteller, createUser } from "../../tests/factories";
import { getPickerLibrary, STARTER_SET } from "./prompt-library.server";

const database = useTestDatabase();

const libraryRow = (category: string, position: number) =>
  database.db
    .selectFrom("library_prompts")
    .select(["id", "text_en", "text_hi"])
    .where("category_id", "=", category)
    .where("position", "=", position)
    .executeTakeFirstOrThrow();

describe("the question picker's library", () => {
  it("counts each category and names them for a newcomer (ids kept)", async () => {
    const owner = await createUser(database.db);
    const st = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
    const library = await getPickerLibrary(database.db, st.id, "en", "");
    const sizes = await database.db
      .selectFrom("library_prompts")
      .select(["category_id", (eb) => eb.fn.countAll<string>().as("n")])
      .groupBy("category_id")
      .execute();
    for (const category of library.categories) {
      expect(category.total).toBe(Number(sizes.find((s) => s.category_id === category.id)?.n));
      expect(category.prompts).toHaveLength(category.total);
    }
    const names = Object.fromEntries(library.categories.map((c) => [c.id, c.name]));
    expect(names).toMatchObject({ "about-us": "Memories of me and us", musings: "Everyday joys and thoughts" });
    const hindi = await getPickerLibrary(database.db, st.id, "hi", "");
    expect(hindi.categories.find((c) => c.id === "last-thoughts")?.name).toBe("आगे सौंपने वाली सीख");
  });

  it("finds questions by English or Hindi words, shown in the Storyteller's language", async () => {
    const owner = await createUser(database.db);
    const st = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
    const song = await libraryRow("musings", 1); // "Which song always lifts your spirits…" / "कौन-सा गीत…"
    const english = await getPickerLibrary(database.db, st.id, "en", "  SONG always ");
    expect(english.query).toBe("SONG always");
    expect(english.categories.flatMap((c) => c.prompts.map((p) => p.id))).toEqual([song.id]);
    expect(english.matches).toBe(1);
    expect(english.starter).toEqual([]);
    const hindiWords = await getPickerLibrary(database.db, st.id, "en", "गीत हमेशा");
    expect(hindiWords.categories.flatMap((c) => c.prompts)).toEqual([
      { id: song.id, text: song.text_en, queued: false },
    ]);
    const nothing = await getPickerLibrary(database.db, st.id, "hi", "zzzz no such words");
    expect(nothing.matches).toBe(0);
    expect(nothing.categories.every((c) => c.prompts.length === 0 && c.total > 0)).toBe(true);
  });

  it("shows a Hindi Storyteller's questions with the English reader's words beside them, and names his categories in English", async () => {
    const owner = await createUser(database.db);
    const st = await createStoryteller(database.db, { ownerId: owner.id, language: "hi", prompts: [] });
    const song = await libraryRow("musings", 1);
    const school = await libraryRow("growing-up", 1);
    const library = await getPickerLibrary(database.db, st.id, "hi", "song always", {
      reader: "en",
      picked: [school.id],
    });
    expect(library.categories.flatMap((c) => c.prompts)).toEqual([
      { id: song.id, text: song.text_hi, gloss: song.text_en, queued: false },
    ]);
    expect(library.categories.find((c) => c.id === "musings")?.name).toBe("Everyday joys and thoughts");
    // What he ticked before this search, out of its sight, still named for the selection.
    expect(library.picked).toEqual([{ id: school.id, text: school.text_hi, gloss: school.text_en }]);
    // A reader of her language needs no gloss.
    const hers = await getPickerLibrary(database.db, st.id, "hi", "song always", { reader: "hi" });
    expect(hers.categories.flatMap((c) => c.prompts)).toEqual([{ id: song.id, text: song.text_hi, queued: false }]);
  });

  it("marks questions already waiting in the queue (by library id or by the same text), not sent ones", async () => {
    const owner = await createUser(database.db);
    const first = await libraryRow("growing-up", 1);
    const second = await libraryRow("about-you", 1);
    const sent = await libraryRow("parenting", 1);
    const st = await createStoryteller(database.db, {
      ownerId: owner.id,
      prompts: [
        second.text_en.toUpperCase(),
        { text: sent.text_en, sentAt: new Date() },
        { text: "Reworded first memory?", libraryPromptId: first.id },
      ],
    });
    const library = await getPickerLibrary(database.db, st.id, "en", "");
    const queued = library.categories.flatMap((c) => c.prompts.filter((p) => p.queued).map((p) => p.id));
    expect(queued.sort()).toEqual([first.id, second.id].sort());
  });

  it("suggests a starter set only while the Storyteller has no questions at all", async () => {
    const owner = await createUser(database.db);
    const fresh = await createStoryteller(database.db, { ownerId: owner.id, prompts: [], language: "hi" });
    const library = await getPickerLibrary(database.db, fresh.id, "hi", "");
    expect(library.starter).toHaveLength(STARTER_SET.length);
    expect(library.starter[0]).toEqual({
      id: (await libraryRow("growing-up", 1)).id,
      text: (await libraryRow("growing-up", 1)).text_hi,
      queued: false,
    });
    const started = await createStoryteller(database.db, { ownerId: owner.id, prompts: ["Where were you born?"] });
    expect((await getPickerLibrary(database.db, started.id, "en", "")).starter).toEqual([]);
  });
});
