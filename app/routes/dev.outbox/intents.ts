/** The phone simulator's buttons (name="intent"); a texted reply is the outbox's other form. */
export const PhoneIntent = {
  call: "phone-call",
  keys: "phone-keys",
  hangUp: "phone-hangup",
  answer: "phone-answer",
} as const;

/** Where the WhatsApp simulator's forms post (multipart: a voice note and/or a text). */
export const WHATSAPP_ACTION = "/dev/outbox?whatsapp";

/** Where the phone simulator's forms post. */
export const PHONE_ACTION = "/dev/outbox?phone";

/** Where "Reply to this email" posts (multipart: her words and an attachment). */
export const EMAIL_REPLY_ACTION = "/dev/outbox?email-reply";
