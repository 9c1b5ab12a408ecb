// Zod-free, so the screen's components need no zod in the browser (decision 026); schema.ts
// checks the posts with it.
import { PROFILE_INTENT } from "~/utils/profile-intent";

/** The page's forms (name="intent"); the values are what the no-JavaScript forms and the journeys post. */
export const Intent = {
  general: PROFILE_INTENT,
  confirmEmail: "confirm-email",
  notifications: "notifications",
  timeZone: "time-zone",
  delete: "delete",
} as const;
export type Intent = (typeof Intent)[keyof typeof Intent];
