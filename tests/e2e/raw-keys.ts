import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";

// A key whose namespace is not loaded renders as itself ("keepLink", "card.nextPrompt"): the
// translator's miss. Every key of every namespace, as it would show, minus the ones that are also
// someone's text.
const localesDir = path.join(import.meta.dirname, "../../locales");

function keysAndValues() {
  const keys = new Set<string>();
  const values = new Set<string>();
  for (const language of readdirSync(localesDir))
    for (const file of readdirSync(path.join(localesDir, language))) {
      const walk = (node: Record<string, unknown>, prefix: string) => {
        for (const [name, value] of Object.entries(node)) {
          const key = prefix ? `${prefix}.${name}` : name;
          if (value && typeof value === "object") walk(value as Record<string, unknown>, key);
          else {
            keys.add(key.replace(/_(zero|one|two|few|many|other)$/, ""));
            values.add(String(value));
          }
        }
      };
      walk(JSON.parse(readFileSync(path.join(localesDir, language, file), "utf8")), "");
    }
  return { keys, values: [...values].join("\n") };
}

const { keys, values } = keysAndValues();
const notText = [...keys].filter((key) => !values.includes(key));
/** "keepLink", "view.editStoryteller", "errors_title": found anywhere in a text. */
const keyShaped = new Set(notText.filter((key) => /[.]|[a-z][A-Z]|_/.test(key)));
/** "title", "heading": a plain word only when it is a whole text by itself. */
const wordKeys = new Set(notText.filter((key) => !keyShaped.has(key)));

/** Translation keys shown raw on the page as it is now: its text, labels, alternatives and title. */
export async function rawKeysOnPage(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const found: string[] = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement?.closest("script, style, template, noscript");
      if (!parent && node.textContent?.trim()) found.push(node.textContent);
    }
    for (const element of document.body.querySelectorAll("[aria-label], [placeholder], [title], [alt]"))
      for (const name of ["aria-label", "placeholder", "title", "alt"]) {
        const value = element.getAttribute(name);
        if (value) found.push(value);
      }
    for (const button of document.body.querySelectorAll<HTMLInputElement>("input[type=submit], input[type=button]"))
      found.push(button.value);
    return found;
  });
  const raw = new Set<string>();
  for (const text of texts) {
    if (wordKeys.has(text.trim())) raw.add(text.trim());
    for (const token of text.match(/[A-Za-z][\w]*(?:\.[A-Za-z_]\w*)*/g) ?? []) if (keyShaped.has(token)) raw.add(token);
  }
  return [...raw];
}
