// Zod-free, so the screen's components need no zod in the browser (decision 026); schema.ts
// checks the posts with it.

/**
 * The group page's forms (name="intent" on their buttons). Remove, Leave, Delete and Revoke only
 * come from their confirmation (?confirm=…), which sends confirm=yes.
 */
export const Intent = {
  update: "update",
  remove: "remove",
  leave: "leave",
  delete: "delete",
  resend: "resend",
  revoke: "revoke",
} as const;

/** What ?confirm= may ask before one of the page's irreversible actions. */
export const confirmable = [Intent.remove, Intent.leave, Intent.delete, Intent.revoke] as const;
export type Confirmable = (typeof confirmable)[number];
