// The choices a Storyteller's form offers (zod-free, so the browser bundle needs no zod: decision 027).
export const deliveryMethods = ["email", "sms"] as const;
export const frequencies = ["daily", "weekly", "bimonthly", "monthly"] as const;
