// What each form's fields say about themselves in HTML (required, pattern, multiple), as conform's
// getZodConstraint reads them from the zod schemas, written out so the browser bundle needs no zod
// (decision 026): the server validates every post with the schema and answers with its messages.
// form-constraints.test.ts holds each of these to getZodConstraint(schema), so they cannot drift.

type Constraints = Record<string, { required?: boolean; pattern?: string; multiple?: boolean }>;
const required = { required: true } as const;
const optional = { required: false } as const;
const language = { required: true, pattern: "en|hi" } as const;

/** profileSchema (app/utils/profile-schema.ts). */
export const profileConstraint: Constraints = {
  intent: required,
  firstName: required,
  lastName: required,
  nickname: required,
  email: required,
  language,
  phone: optional,
  photo: optional,
};

/** groupDetailsSchema (app/utils/group-schema.ts). */
export const groupDetailsConstraint: Constraints = { name: required, description: required };

/** invitationEmailsSchema (app/utils/group-schema.ts). */
export const invitationEmailsConstraint: Constraints = {
  emails: { required: false, multiple: true },
  "emails[]": optional,
};

/** pickStorytellerSchema (app/utils/group-schema.ts). */
export const pickStorytellerConstraint: Constraints = { storytellerId: required };

/** storytellerSchema (app/utils/storyteller-schema.ts). */
export const storytellerConstraint: Constraints = {
  nickname: required,
  firstName: required,
  relationship: optional,
  deliveryMethod: { required: true, pattern: "email|sms|call" },
  email: optional,
  phone: optional,
  callConsent: optional,
  timeZone: required,
  language,
};

/** scheduleSchema (app/utils/storyteller-schema.ts). */
export const scheduleConstraint: Constraints = {
  firstPromptDate: required,
  frequency: { required: true, pattern: "daily|weekly|bimonthly|monthly" },
};

/** storytellerWithScheduleSchema (app/utils/storyteller-schema.ts). */
export const storytellerWithScheduleConstraint: Constraints = { ...storytellerConstraint, ...scheduleConstraint };

/** promptsSchema (app/utils/prompt-schema.ts). */
export const promptsConstraint: Constraints = {
  libraryPromptIds: { required: false, multiple: true },
  "libraryPromptIds[]": required,
  customPrompts: { required: false, multiple: true },
  "customPrompts[]": required,
};

/** inviteSchema (app/utils/invite-schema.ts). */
export const inviteConstraint: Constraints = { email: required, groupId: optional };
