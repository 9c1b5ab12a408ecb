// The choices a Storyteller's form offers (zod-free, so the browser bundle needs no zod: decision 026).
export const deliveryMethods = ["email", "sms", "call", "whatsapp"] as const;
export const frequencies = ["daily", "weekly", "bimonthly", "monthly"] as const;

/** How far ahead the first question may be planned: a year (and a day, for a leap year). */
export const FIRST_PROMPT_MAX_DAYS_AHEAD = 366;
