// Zod-free, so the screen's components need no zod in the browser (decision 026); schema.ts
// checks the posts with it.

/** The Timeline's address bar: the filter's field and the "Older answers" link's cursor. */
export const Param = { storyteller: "storyteller", before: "before" } as const;
