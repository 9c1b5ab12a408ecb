// Zod-free, so the screen's components need no zod in the browser (decision 026); schema.ts
// checks the posts with it.

/** Every button on the Storyteller view (name="intent"); the values are what no-JS forms post. */
export const Intent = {
  // Scheduled tab, per queued prompt.
  moveUp: "move-up",
  moveDown: "move-down",
  moveTop: "move-top",
  place: "place", // drag and drop
  edit: "edit",
  delete: "delete",
  sendNow: "send-now",
  // The owner's delivery controls.
  pause: "pause",
  resume: "resume",
  // Sent tab, per answer.
  answerShare: "answer-share",
  answerUnshare: "answer-unshare",
  answerDelete: "answer-delete",
  answerRerecord: "answer-rerecord",
} as const;

/** The id of a queued prompt's row: a plain post's redirect and the Delete/Edit links come back to it. */
export const queuedAnchor = (promptId: string) => `prompt-${promptId}`;
