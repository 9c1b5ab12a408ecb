/** The keep page's buttons (name="intent"); the export has its own route (ExportCard posts to it). */
export const Intent = { book: "book", print: "print", revokeLink: "revoke-link" } as const;

/** The longest book title the form takes. */
export const MAX_TITLE = 120;
