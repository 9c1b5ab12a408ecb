// Zod-free, so the screen's components need no zod in the browser (decision 026); schema.ts
// checks the posts with it.

/** Every button on My Stories (name="intent"); the values are what no-JS forms post. */
export const Intent = {
  // "Record a story": a library question, or a title of one's own.
  recordLibrary: "record-library",
  recordTitle: "record-title",
  // Per story.
  privacy: "privacy",
  delete: "delete",
} as const;

/**
 * Where a story is recorded: a page of its own with the record page's recorder, served without React
 * (like the record link's), so whatever leads there loads it as a whole document (a plain link, a
 * form with reloadDocument).
 */
export const recordingPath = (promptId: string) => `/dashboard/mystories/record/${promptId}`;
