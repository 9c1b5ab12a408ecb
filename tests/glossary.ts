// Reads docs/glossary.md (its table and its names) and checks locale values against it, so the doc
// and the test are one source (decision 052).
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..");

type Language = "en" | "hi";
export type Glossary = { banned: Record<Language, string[]>; names: Set<string> };
export type LocaleValue = { where: string; text: string };
export type Finding = { where: string; rule: string; text: string };

const between = (doc: string, marker: string) => {
  const match = doc.match(new RegExp(`<!-- ${marker}:begin -->([\\s\\S]*?)<!-- ${marker}:end -->`));
  if (!match) throw new Error(`docs/glossary.md has no ${marker} markers`);
  return match[1];
};
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

export function parseGlossary(doc: string): Glossary {
  const rows = between(doc, "glossary")
    .split("\n")
    .filter((line) => line.startsWith("|") && !line.startsWith("| ---") && !line.startsWith("| Concept"))
    .map((line) => line.split("|").slice(1, -1));
  if (rows.some((cells) => cells.length !== 5)) throw new Error("a glossary row does not have five cells");
  const names = between(doc, "names")
    .split(/[,\s]+/)
    .filter(Boolean);
  return {
    banned: { en: rows.flatMap((c) => ticked(c[3])), hi: rows.flatMap((c) => ticked(c[4])) },
    names: new Set(names),
  };
}

export const readGlossary = () => parseGlossary(readFileSync(path.join(root, "docs/glossary.md"), "utf8"));

/** Every string in locales/<language>/*.json, named file:key.path. */
export function localeValues(language: Language): LocaleValue[] {
  const dir = path.join(root, "locales", language);
  return readdirSync(dir).flatMap((file) => {
    const out: LocaleValue[] = [];
    const walk = (node: unknown, key: string) => {
      if (typeof node === "string") out.push({ where: `${language}/${file}:${key}`, text: node });
      else if (node && typeof node === "object")
        for (const [name, child] of Object.entries(node)) walk(child, key ? `${key}.${name}` : name);
    };
    walk(JSON.parse(readFileSync(path.join(dir, file), "utf8")), "");
    return out;
  });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const withoutPlaceholders = (text: string) => text.replace(/\{\{[^}]*\}\}/g, " ");
const NOT_LETTER = "[\\p{L}\\p{M}\\p{N}]";

/** English: the whole word, any case, with or without a plural "s". Hindi: the start of a word. */
export function bannedPattern(term: string, language: Language) {
  const body = term.split(/\s+/).map(escape).join("\\s+");
  return language === "en"
    ? new RegExp(`(?<!${NOT_LETTER})${body}s?(?!${NOT_LETTER})`, "iu")
    : new RegExp(`(?<!${NOT_LETTER})${body}`, "u");
}

export function bannedWords(values: LocaleValue[], terms: string[], language: Language): Finding[] {
  const patterns = terms.map((term) => [term, bannedPattern(term, language)] as const);
  return values.flatMap(({ where, text }) =>
    patterns
      .filter(([, pattern]) => pattern.test(withoutPlaceholders(text)))
      .map(([term]) => ({ where, rule: `banned "${term}"`, text })),
  );
}

const WORD = /[\p{L}][\p{L}\p{M}'’-]*/gu;
const isCapital = (word: string) => /^\p{Lu}/u.test(word);
const isAcronym = (word: string) => word === "I" || (word.length > 1 && word === word.toUpperCase());

/**
 * Sentence case. Any value: not every word capitalised (two or more, names and acronyms aside).
 * A label (at most eight words and no closing full stop, as headings, buttons and toasts are): no
 * capital after the first word, except names, acronyms, and a word starting a sentence or a quotation.
 */
export function titleCase(values: LocaleValue[], names: Set<string>): Finding[] {
  return values.flatMap(({ where, text }) => {
    const plain = withoutPlaceholders(text);
    const words = [...plain.matchAll(WORD)];
    const ordinary = words.filter(([word]) => !names.has(word) && !isAcronym(word));
    if (ordinary.length >= 2 && ordinary.every(([word]) => isCapital(word)))
      return [{ where, rule: "Title Case", text }];
    if (words.length > 8 || plain.trimEnd().endsWith(".")) return [];
    const midCapital = words.slice(1).find((match) => {
      const [word] = match;
      if (!isCapital(word) || names.has(word) || isAcronym(word)) return false;
      const before = plain.slice(0, match.index).trimEnd();
      return !/[.:!?“"‘'(]$/.test(before);
    });
    return midCapital ? [{ where, rule: `capital "${midCapital[0]}" inside a label`, text }] : [];
  });
}

/** "Storyteller" is our capitalised product noun: never written lower case. */
export function lowerCaseStoryteller(values: LocaleValue[]): Finding[] {
  return values
    .filter(({ text }) => /(?<![\p{L}])storytellers?(?![\p{L}])/u.test(withoutPlaceholders(text)))
    .map(({ where, text }) => ({ where, rule: 'lower-case "storyteller"', text }));
}
