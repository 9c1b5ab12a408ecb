import type { Config } from "~/config.server";
import { type PhoneNumber, takesTexts } from "~/utils/phone.server";
import type { deliveryMethods } from "~/utils/storyteller-choices";
import { voiceLineFor } from "~/utils/voice-lines.server";

/** The ways a question can reach a phone number. */
export type PhoneMethod = Exclude<(typeof deliveryMethods)[number], "email">;

/**
 * Which methods can work for a number (decisions 041, 043): texts to US and Canadian numbers that
 * are not landlines (the spec's rule), calls where her country has an answer-by-phone line, WhatsApp
 * to any mobile number where WhatsApp is on.
 */
export function phoneMethods(phone: PhoneNumber, config: Pick<Config, "voiceLines" | "whatsappOn">): PhoneMethod[] {
  const methods: PhoneMethod[] = [];
  if (takesTexts(phone)) methods.push("sms");
  if (voiceLineFor(config, phone.country)) methods.push("call");
  if (config.whatsappOn && !phone.landline) methods.push("whatsapp");
  return methods;
}

const WHY_NOT: Record<PhoneMethod, string> = {
  sms: "storytellers:errors.smsOnlyUsCaMobile",
  call: "storytellers:errors.noLineInCountry",
  whatsapp: "storytellers:errors.whatsappNotMobile",
};

/** Why a number cannot take a method, then what it can take: the two lines the form shows. */
export function methodRefusal(method: PhoneMethod, usable: PhoneMethod[]): string[] {
  return [WHY_NOT[method], `storytellers:errors.numberCan.${usable.length ? usable.join("_") : "none"}`];
}
