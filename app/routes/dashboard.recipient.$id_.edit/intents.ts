// Zod-free, so the screen's components need no zod in the browser (decision 026); schema.ts
// checks the posts with it.

/** The page's two forms (name="intent" on their buttons): save the Storyteller, or delete them. */
export const Intent = { update: "update", delete: "delete" } as const;
