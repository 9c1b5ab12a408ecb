// Add Group's buttons and its cap on invitations, zod-free so its forms need no zod in the browser
// (decision 026); app/utils/group-schema.ts checks the posts with them.

/**
 * The most addresses one post may invite (Add Group's step 3): each is an email sent at once, so a
 * post cannot send hundreds. More people are invited later from Invite someone. The number is also in
 * the message (groups:errors.tooManyInvitations, en and hi).
 */
export const MAX_INVITATIONS_PER_POST = 20;

/**
 * Add Group's buttons (name="intent"), on its page and in its dialog. Back never needs the step to be
 * valid. On step 2, Pick takes one of my Storytellers and Create a new one; on step 3, More keeps the
 * addresses and adds a blank one, Submit creates the group.
 */
export const AddGroupIntent = {
  back: "back",
  next: "next",
  pick: "pick",
  create: "create",
  more: "more",
  submit: "submit",
} as const;
