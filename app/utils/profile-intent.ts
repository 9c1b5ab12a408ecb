/** The profile form's intent, as the no-JavaScript form and the journeys post it (zod-free, for the browser). */
export const PROFILE_INTENT = "general";
