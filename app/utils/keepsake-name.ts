// One name for a Storyteller's keepsakes: the book's default title, the export's title, the folder
// the zip unpacks into and the file either downloads as ("The stories of Dadi",
// "The-stories-of-Dadi-2026-11-28.pdf"), in the language of the page or the person who asked.

/** Her name as the family says it (decision 047): the nickname, her first name when it is blank. */
export const familyName = (storyteller: { nickname: string; first_name: string }) =>
  storyteller.nickname.trim() || storyteller.first_name;

/** "The stories of Dadi": `t` is the "keep" namespace's, in the browser or on the server. */
export const storiesTitle = (t: (key: "book.defaultTitle", vars: { name: string }) => string, name: string) =>
  t("book.defaultTitle", { name });

/** A file name any file system takes: the title's letters (any script), spaces as dashes, and the day. */
export function keepsakeFilename(title: string, madeAt: Date, extension: "pdf" | "zip") {
  return `${keepsakeFolder(title, madeAt)}.${extension}`;
}

/** The folder an export unpacks into: the file's name without its extension. */
export function keepsakeFolder(title: string, madeAt: Date) {
  const cleaned = title
    .replace(/[\p{Cc}<>:"/\\|?*'’]+/gu, "")
    .trim()
    .replace(/\s+/g, "-");
  return `${cleaned || "heirloom"}-${madeAt.toISOString().slice(0, 10)}`;
}
