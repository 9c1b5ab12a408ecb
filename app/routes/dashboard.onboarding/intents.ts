// Zod-free, so the screen's components need no zod in the browser (decision 026); schema.ts
// checks the posts with it.

/** The wizard's buttons (name="intent"). Back never needs the step to be valid; Next and Submit carry its fields. */
export const Intent = { back: "back", next: "next", submit: "submit" } as const;
