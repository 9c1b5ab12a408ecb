import EmailReplyParser from "email-reply-parser";

// Her words from a reply: Postmark's StrippedTextReply when it has one, else the text part, else the
// HTML part as text, each without the quoted question, "On … wrote:" and signature lines
// (email-reply-parser). Hindi mail apps' own lines, which the parser does not know, are cut first.

/** "… ने लिखा:" (Gmail and Apple Mail in Hindi) starts the quoted question. */
const HINDI_QUOTE_HEADER = /^.*ने लिखा\s*:\s*$/m;
/** "मेरे iPhone से भेजा गया" and the like: a mail app's signature line. */
const HINDI_SENT_FROM = /^\s*(मेरे\s.+\sसे\sभेजा\sगया|.+\sसे\sभेजा\sगया)\s*$/gm;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** An HTML mail as plain text: quoted blocks dropped, paragraphs and line breaks kept. */
export function htmlToText(html: string): string {
  return (
    html
      .replace(/<(head|style|script)[\s\S]*?<\/\1>/gi, "")
      // Gmail's and Apple Mail's quoted question; Outlook's is found by its "From:" line below.
      .replace(/<blockquote[\s\S]*<\/blockquote>/gi, "")
      .replace(/<div[^>]*class="?gmail_quote[\s\S]*$/i, "")
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(/<\/(p|div|li|h[1-6]|tr)>/gi, "\n")
      .replace(/<[^>]+>/g, "")
      .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
        if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(parseInt(name.slice(2), 16));
        if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
        return ENTITIES[name.toLowerCase()] ?? entity;
      })
      .replace(/[ \t]+\n/g, "\n")
      .replace(/\n{3,}/g, "\n\n")
  );
}

function clean(text: string): string {
  let body = text.replace(/\r\n?/g, "\n");
  const hindiHeader = HINDI_QUOTE_HEADER.exec(body);
  if (hindiHeader) body = body.slice(0, hindiHeader.index);
  body = body.replace(HINDI_SENT_FROM, "");
  return new EmailReplyParser().parseReply(body).trim();
}

/** What she wrote, or "" when the reply has no words of its own. */
export function replyWords(reply: {
  strippedText?: string | null;
  text?: string | null;
  html?: string | null;
}): string {
  for (const candidate of [reply.strippedText, reply.text, reply.html ? htmlToText(reply.html) : null]) {
    if (!candidate?.trim()) continue;
    const words = clean(candidate);
    if (words) return words;
  }
  return "";
}
