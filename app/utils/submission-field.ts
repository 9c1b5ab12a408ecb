/**
 * The hidden field a creating form carries: one id per drawing of the form, made by its loader
 * (newSubmissionId) and claimed once by its action (oncePerSubmission, app/models/form-submission.server.ts).
 */
export const SUBMISSION_FIELD = "submissionId";
