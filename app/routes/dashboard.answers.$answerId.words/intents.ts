// Zod-free, so the screen's components need no zod in the browser (decision 026); schema.ts checks
// the posts with it.

/** Save the corrected words; about words heard again: use them, or keep the family's. */
export const Intent = { save: "save", useHeard: "use-heard", keepOurs: "keep-ours" } as const;
