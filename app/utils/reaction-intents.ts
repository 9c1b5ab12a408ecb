// Zod-free (decision 026): the reactions' buttons render from these; reaction-schema.ts checks posts.

/** A heart, taking it back, or a note, on an answer (decision 048). */
export const ReactionIntent = { heart: "heart", unheart: "unheart", note: "note" } as const;

/** The longest note (the database holds the same limit). */
export const MAX_NOTE = 500;
