import { describe, expect, it } from "vitest";
import {
  bannedWords,
  lowerCaseStoryteller,
  localeValues,
  parseGlossary,
  readGlossary,
  titleCase,
  type Finding,
} from "../../tests/glossary";

// One vocabulary (docs/glossary.md, decision 052): each thing has one word in each language.
const glossary = readGlossary();
const en = localeValues("en");
const hi = localeValues("hi");

/** Real exceptions: where (file:key), the rule it breaks, and why it stays. */
const allowed: { where: string; rule: string; why: string }[] = [
  {
    where: "hi/privacy.json:sections.5.paragraphs.1",
    rule: 'banned "सहयोगी"',
    why: "carriers' required wording: 'third parties or affiliates' (सहयोगी कंपनियाँ), not group members",
  },
  {
    where: "hi/registered-texts.json:sections.9.paragraphs.0",
    rule: 'banned "सहयोगी"',
    why: "carriers' required wording: 'third parties or affiliates' (सहयोगी कंपनियाँ), not group members",
  },
];

const unexplained = (findings: Finding[]) =>
  findings
    .filter((f) => !allowed.some((a) => a.where === f.where && a.rule === f.rule))
    .map((f) => `${f.where}: ${f.rule}: ${f.text}`);

describe("the glossary", () => {
  it("names banned words in both languages and the capitalised names", () => {
    expect(glossary.banned.en).toContain("prompt");
    expect(glossary.banned.en).toContain("login");
    expect(glossary.banned.hi).toContain("प्रश्न");
    expect(glossary.names.has("Storyteller")).toBe(true);
  });

  it("allows nothing it does not need", () => {
    const findings = [...bannedWords(en, glossary.banned.en, "en"), ...bannedWords(hi, glossary.banned.hi, "hi")];
    const stale = allowed.filter((a) => !findings.some((f) => f.where === a.where && f.rule === a.rule));
    expect(stale).toEqual([]);
  });
});

describe("locales/en", () => {
  it("uses no banned synonym", () => {
    expect(unexplained(bannedWords(en, glossary.banned.en, "en"))).toEqual([]);
  });

  it("writes headings, buttons and labels in sentence case", () => {
    expect(unexplained(titleCase(en, glossary.names))).toEqual([]);
  });

  it("always capitalises Storyteller", () => {
    expect(unexplained(lowerCaseStoryteller(en))).toEqual([]);
  });
});

describe("locales/hi", () => {
  it("uses no banned synonym", () => {
    expect(unexplained(bannedWords(hi, glossary.banned.hi, "hi"))).toEqual([]);
  });

  it("quotes no banned English word either", () => {
    expect(unexplained(bannedWords(hi, glossary.banned.en, "en"))).toEqual([]);
  });
});

describe("the checks themselves", () => {
  const planted = (text: string) => [{ where: "en/planted.json:x", text }];

  it("find a planted synonym, whole words only, and ignore placeholders", () => {
    const terms = glossary.banned.en;
    expect(bannedWords(planted("Next Prompt"), terms, "en")).toHaveLength(1);
    expect(bannedWords(planted("Delete this response?"), terms, "en")).toHaveLength(1);
    expect(bannedWords(planted("Please check your email to login"), terms, "en")).toHaveLength(1);
    expect(bannedWords(planted("Log in"), terms, "en")).toHaveLength(1);
    expect(bannedWords(planted("Answer to: {{prompt}}"), terms, "en")).toEqual([]);
    expect(bannedWords(planted("Responsive pages"), terms, "en")).toEqual([]);
    expect(bannedWords([{ where: "hi/planted.json:x", text: "नए प्रश्नों" }], glossary.banned.hi, "hi")).toHaveLength(1);
  });

  it("find Title Case but let names, acronyms and quotations be", () => {
    const names = glossary.names;
    expect(titleCase(planted("New Storyteller Added"), names)).toHaveLength(1);
    expect(titleCase(planted("Not Answered"), names)).toHaveLength(1);
    expect(titleCase(planted("Add New Question for {{name}}"), names)).toHaveLength(1);
    expect(titleCase(planted("Add a Storyteller"), names)).toEqual([]);
    expect(titleCase(planted("US letter"), names)).toEqual([]);
    expect(titleCase(planted("See “Check your setup”"), names)).toEqual([]);
    expect(titleCase(planted("Sent. Thank you."), names)).toEqual([]);
  });

  it("read the table's five cells, backticked words only", () => {
    const doc =
      "<!-- glossary:begin -->\n| Concept | English | Hindi | Not in English | Not in Hindi |\n| --- | --- | --- | --- | --- |\n| q | question | सवाल | `prompt`, `ask item` | `प्रश्न` |\n<!-- glossary:end -->\n<!-- names:begin -->\nHeirloom, Storyteller\n<!-- names:end -->";
    expect(parseGlossary(doc)).toEqual({
      banned: { en: ["prompt", "ask item"], hi: ["प्रश्न"] },
      names: new Set(["Heirloom", "Storyteller"]),
    });
  });
});
