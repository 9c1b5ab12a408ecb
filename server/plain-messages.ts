import en from "../locales/en/common.json";
import hi from "../locales/hi/common.json";

type PlainMessage = keyof typeof en.plain;

/**
 * The few answers Express gives before React Router runs (CSRF refusal, maintenance, last-resort errors):
 * plain text in both languages, from the locale files like every other string.
 */
export function plainMessage(key: PlainMessage, appName: string): string {
  const fill = (text: string) => text.replaceAll("{{appName}}", appName);
  return `${fill(en.plain[key])}\n\n${fill(hi.plain[key])}\n`;
}
