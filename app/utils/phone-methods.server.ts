import type { Config } from "~/config.server";
import { type PhoneNumber, TEXT_COUNTRIES } from "~/utils/phone.server";
import { voiceLineFor } from "~/utils/voice-lines.server";

/** The ways a question can reach a phone number. */
export type PhoneMethod = "sms" | "call";

/**
 * Which methods can work for a number (decision 043): texts to US and Canadian numbers that are
 * not landlines (the spec's rule), calls where her country has an answer-by-phone line.
 */
export function phoneMethods(phone: PhoneNumber, config: Pick<Config, "voiceLines">): PhoneMethod[] {
  const methods: PhoneMethod[] = [];
  if (TEXT_COUNTRIES.includes(phone.country) && !phone.landline) methods.push("sms");
  if (voiceLineFor(config, phone.country)) methods.push("call");
  return methods;
}

/** Why a number cannot take a method, then what it can take: the two lines the form shows. */
export function methodRefusal(method: PhoneMethod, usable: PhoneMethod[]): string[] {
  const why = method === "sms" ? "storytellers:errors.smsOnlyUsCaMobile" : "storytellers:errors.noLineInCountry";
  return [why, `storytellers:errors.numberCan.${usable.length ? usable.join("_") : "none"}`];
}
