import { z } from "zod";
import { supportedLanguages } from "~/i18n/config";
import { deliveryMethods, FIRST_PROMPT_MAX_DAYS_AHEAD, frequencies } from "~/utils/storyteller-choices";
import { addDays, calendarDate, choice, email, line, plainLine } from "~/utils/validation";

// A Storyteller's fields, as adding one (onboarding step 1), editing one and Add Group ask for them:
// one schema, checked on the server. Two checks only the server makes, in
// checkStorytellerFields (app/models/storyteller.server.ts): a number valid in its country and
// usable for the method (libphonenumber would add about 29 KB of compressed JavaScript to these
// pages) and a time zone the server knows.

const optionalText = (max: number) =>
  z.preprocess((value) => (value === "" ? undefined : value), plainLine(max).optional());

export { deliveryMethods, frequencies };

// A search, never refused: cut to 60 characters and cleaned of control characters (it shows no error).
const searchText = z.preprocess(
  (value) =>
    typeof value === "string"
      ? value
          .replace(/\p{Cc}/gu, "")
          .trim()
          .slice(0, 60) || undefined
      : undefined,
  z.string().optional(),
);

/** Who the Storyteller is and how questions reach them. */
export const storytellerShape = {
  nickname: line(2, 30),
  firstName: line(1, 50),
  relationship: optionalText(50),
  deliveryMethod: choice(deliveryMethods),
  email: z.preprocess((value) => (value === "" ? undefined : value), email().optional()),
  phone: optionalText(30),
  /** The country a number written without "+" is read in (ISO 3166, as libphonenumber names them). */
  // A country not offered is no country (the number must then carry its +code): the select shows no error.
  phoneCountry: z.preprocess(
    (value) => (typeof value === "string" && /^[A-Z]{2}$/.test(value) ? value : undefined),
    z.string().optional(),
  ),
  /** "Phone call": the owner confirms the Storyteller agreed to be called (decision 027). */
  callConsent: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.literal("on", { error: "storytellers:errors.callConsentRequired" }).optional(),
  ),
  /** WhatsApp: the owner confirms the Storyteller agreed to get questions there (decision 041). */
  whatsappConsent: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.literal("on", { error: "storytellers:errors.whatsappConsentRequired" }).optional(),
  ),
  timeZone: z.string({ error: "validation.required" }).min(1, "validation.required"),
  /** What the time-zone chooser was searched for (kept so a plain post shows the same list again). */
  zoneQuery: searchText,
  /** The search the page was drawn with: a post whose search differs is that search (zoneSearchFirst). */
  zoneQueryShown: searchText,
  language: choice(supportedLanguages),
};

/** When the first question goes and how often the next ones follow. */
export const scheduleShape = {
  firstPromptDate: calendarDate(),
  frequency: choice(frequencies),
};

export { FIRST_PROMPT_MAX_DAYS_AHEAD };

/**
 * What is wrong with a first prompt date, given today where the Storyteller lives, or null: not
 * before today, not more than a year ahead. A date left as it was (`current`, when editing) stands
 * even once it has passed, so an older Storyteller's other fields can still be changed.
 */
export function firstPromptDateProblem(date: string, today: string, current?: string): string | null {
  if (date === current) return null;
  if (date < today) return "storytellers:errors.dateInPast";
  if (date > addDays(today, FIRST_PROMPT_MAX_DAYS_AHEAD)) return "storytellers:errors.dateTooFar";
  return null;
}

/**
 * Email delivery needs an address, texts and calls a number, and calls the owner's word that the
 * Storyteller agreed to be called (cross-field rules, so not in the shape).
 */
export function requireAddressForDelivery(
  value: {
    deliveryMethod: (typeof deliveryMethods)[number];
    email?: string;
    phone?: string;
    callConsent?: "on";
    whatsappConsent?: "on";
  },
  ctx: z.RefinementCtx,
) {
  if (value.deliveryMethod === "email" && !value.email)
    ctx.addIssue({ code: "custom", path: ["email"], message: "validation.emailRequired" });
  if (value.deliveryMethod === "sms" && !value.phone)
    ctx.addIssue({ code: "custom", path: ["phone"], message: "storytellers:errors.phoneRequired" });
  if (value.deliveryMethod === "call" && !value.phone)
    ctx.addIssue({ code: "custom", path: ["phone"], message: "storytellers:errors.callPhoneRequired" });
  if (value.deliveryMethod === "call" && !value.callConsent)
    ctx.addIssue({ code: "custom", path: ["callConsent"], message: "storytellers:errors.callConsentRequired" });
  if (value.deliveryMethod === "whatsapp" && !value.phone)
    ctx.addIssue({ code: "custom", path: ["phone"], message: "storytellers:errors.whatsappPhoneRequired" });
  if (value.deliveryMethod === "whatsapp" && !value.whatsappConsent)
    ctx.addIssue({ code: "custom", path: ["whatsappConsent"], message: "storytellers:errors.whatsappConsentRequired" });
}

export const storytellerSchema = z.object(storytellerShape).superRefine(requireAddressForDelivery);
export const scheduleSchema = z.object(scheduleShape);
/** Editing a Storyteller (and a new one in Add Group): who they are and their schedule in one form. */
export const storytellerWithScheduleSchema = z
  .object({ ...storytellerShape, ...scheduleShape })
  .superRefine(requireAddressForDelivery);

export type StorytellerInput = z.infer<typeof storytellerSchema>;
export type ScheduleInput = z.infer<typeof scheduleSchema>;
