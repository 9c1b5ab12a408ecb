import { z } from "zod";
import type { AppContext } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import { anchorPages, htmlToPdf } from "~/services/pdf.server";
import { qrSvg } from "~/services/qr.server";
import { formatDay, readerTimeZone } from "~/utils/intl-formats";
import { familyName } from "~/utils/keepsake-name";
import { cleanSegments, paragraphsOf, paragraphsOfText } from "~/utils/words";
import { type BookOptions, keptAnswers, listenUrlsFor } from "./keepsake.server";

/**
 * The keepsake book (decisions 023, 047): HTML printed to PDF by the system Chromium. A cover (title,
 * the Storyteller's nickname, a photo), a contents page with page numbers, then the chosen answers
 * flowing one after another in the chosen order: the question, who asked, the date, the transcript,
 * and a QR code for the answer's permanent listen link. Every word of the frame is in the book's
 * language (the Storyteller's unless the keep page chose another). Page margins are wider on the
 * binding side (inside), mirrored between left and right pages.
 */

export const bookOptionsSchema = z.object({
  title: z.string().min(1).max(120),
  answerIds: z.array(z.uuid()).min(1),
  paper: z.enum(["a4", "letter"]),
  cover: z.enum(["none", "storyteller", "uploaded"]),
  // Books asked for before the choice existed are in the Storyteller's language.
  language: z.enum(["en", "hi"]).optional(),
});

/** An answer's anchor: the contents link to it, and the first print says on which page it starts. */
const anchorOf = (index: number) => `answer-${index + 1}`;

const PHOTO_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
};

function escapeHtml(value: string) {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

export type BookRequest = {
  userId: string;
  storytellerId: string;
  options: BookOptions;
};

export type BuildBookResult = { kind: "pdf"; pdf: Uint8Array } | { kind: "not-found" };

/**
 * Makes the book's PDF for the user who asked (their access is checked again now: someone who left
 * the group gets "not-found"). `onProgress` hears 0–100.
 */
export async function buildBook(
  context: Pick<AppContext, "db" | "config" | "storage">,
  request: BookRequest,
  onProgress: (percent: number) => Promise<void> = async () => {},
  now = new Date(),
): Promise<BuildBookResult> {
  const answers = await keptAnswers(context.db, request.userId, {
    kind: "storyteller",
    storytellerId: request.storytellerId,
  });
  if (!answers) return { kind: "not-found" };
  const byId = new Map(answers.map((answer) => [answer.id, answer]));
  const chosen = request.options.answerIds.flatMap((id) => byId.get(id) ?? []);
  if (!chosen.length) return { kind: "not-found" };
  await onProgress(10);

  // A written answer (a reply by email) has no voice to open: no QR code.
  const urls = await listenUrlsFor(
    context,
    request.userId,
    chosen.filter((answer) => answer.storage_key !== null).map((answer) => answer.id),
  );
  const codes = new Map<string, string>();
  for (const [index, answer] of chosen.entries()) {
    const url = urls.get(answer.id);
    if (url) codes.set(answer.id, await qrSvg(url));
    await onProgress(10 + Math.round((40 * (index + 1)) / chosen.length));
  }

  const storyteller = await context.db
    .selectFrom("storytellers")
    .select(["first_name", "nickname", "language", "profile_pic_key", "book_cover_key"])
    .where("id", "=", request.storytellerId)
    .executeTakeFirstOrThrow();
  const coverKey = { none: null, storyteller: storyteller.profile_pic_key, uploaded: storyteller.book_cover_key }[
    request.options.cover
  ];
  let cover = "";
  if (coverKey) {
    const type = PHOTO_TYPES[coverKey.split(".").pop()?.toLowerCase() ?? ""];
    const stored = type ? await context.storage.get(coverKey) : null;
    if (stored && type) {
      const bytes = Buffer.from(await new Response(stored.body).arrayBuffer());
      cover = `data:${type};base64,${bytes.toString("base64")}`;
    }
  }

  // Dates in the zone of the family member who asked for the book, as their Timeline says them.
  const reader = await context.db
    .selectFrom("users")
    .select("time_zone")
    .where("id", "=", request.userId)
    .executeTakeFirstOrThrow();
  const timeZone = readerTimeZone(reader);
  const language = request.options.language ?? storyteller.language;
  const t = await getServerT(language, context, "keep");
  // What the family calls her ("Grandma Rose"), as the cover and every "Scan to hear …" say.
  const name = familyName(storyteller);
  const date = (value: Date) => formatDay(language, value, timeZone, "long");
  const sections = chosen.map((answer, index) => {
    const transcript = answer.transcript?.trim();
    // The family's (corrected) words, in the paragraphs the pages show: cut at the voice's pauses when
    // there are timings, else at the blank lines typed.
    const segments = cleanSegments(answer.transcript_segments);
    const texts = segments.length
      ? paragraphsOf(segments).map((paragraph) => paragraph.map((segment) => segment.text.trim()).join(" "))
      : paragraphsOfText(transcript ?? "");
    const paragraphs =
      transcript && texts.length
        ? texts.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("")
        : `<p class="none">${escapeHtml(t("book.noTranscript"))}</p>`;
    const code = codes.get(answer.id);
    return `<section class="answer" id="${anchorOf(index)}">
<header>
<div><p class="number">${index + 1}</p><h2>${escapeHtml(answer.prompt_text)}</h2>
<p class="meta">${escapeHtml(t("book.askedBy", { name: answer.asked_by }))} · ${escapeHtml(t("book.answeredOn", { date: date(answer.answered_at) }))}</p></div>
${code ? `<figure class="qr">${code}<figcaption>${escapeHtml(t("book.scan", { name }))}</figcaption></figure>` : ""}
</header>
<div class="transcript">${paragraphs}</div>
</section>`;
  });
  // Page numbers come from the first print; "00" holds their place so the contents wrap alike.
  const contents = (pages: Map<string, number> | null) =>
    chosen
      .map((answer, index) => {
        const page = pages?.get(anchorOf(index));
        return `<li><a href="#${anchorOf(index)}"><span class="n">${index + 1}.</span><span class="q">${escapeHtml(answer.prompt_text)}</span><span class="p">${page ?? "00"}</span></a></li>`;
      })
      .join("");
  const size = request.options.paper === "letter" ? "letter" : "A4";
  const html = (pages: Map<string, number> | null) => `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<title>${escapeHtml(request.options.title)}</title>
<style>
@page { size: ${size}; margin: 22mm 18mm 24mm 18mm; @bottom-center { content: counter(page); font: 9pt "Noto Serif", serif; color: #555; } }
@page :first { @bottom-center { content: none; } }
@page :left { margin-left: 18mm; margin-right: 28mm; }
@page :right { margin-left: 28mm; margin-right: 18mm; }
html { font-family: "Noto Serif", "Noto Serif Devanagari", "Noto Sans Devanagari", "Noto Color Emoji", serif; font-size: 12pt; color: #1d1d1d; }
body { margin: 0; }
.cover { height: 230mm; display: flex; flex-direction: column; align-items: center; justify-content: center; text-align: center; break-after: page; }
.cover h1 { font-size: 30pt; margin: 0 0 6mm; line-height: 1.3; }
.cover img { width: 90mm; height: 90mm; object-fit: cover; border-radius: 4mm; margin-bottom: 12mm; }
.cover .byline { font-size: 15pt; margin: 0; }
.cover .made { font-size: 10pt; color: #555; margin-top: 20mm; }
.contents { break-after: page; }
.contents h2 { font-size: 18pt; }
.contents ol { list-style: none; padding: 0; line-height: 1.7; }
.contents a { display: flex; gap: 3mm; color: inherit; text-decoration: none; break-inside: avoid; }
.contents .n { flex: none; min-width: 8mm; color: #555; }
.contents .q { flex: 1; }
.contents .p { flex: none; min-width: 10mm; text-align: end; color: #555; font-variant-numeric: tabular-nums; }
.answer + .answer { margin-top: 12mm; padding-top: 10mm; border-top: 0.3mm solid #c9b98f; }
.answer header { display: flex; gap: 8mm; align-items: flex-start; justify-content: space-between; break-inside: avoid; break-after: avoid; }
.answer .number { color: #8a6d3b; font-size: 11pt; margin: 0 0 2mm; }
.answer h2 { font-size: 18pt; line-height: 1.4; margin: 0 0 3mm; }
.answer .meta { color: #555; font-size: 10pt; margin: 0; }
.qr { margin: 0; width: 36mm; flex: none; text-align: center; }
.qr svg { width: 36mm; height: 36mm; }
.qr figcaption { font-size: 8pt; color: #555; line-height: 1.3; }
.transcript { margin-top: 8mm; line-height: 1.7; text-align: start; }
.transcript p { margin: 0 0 4mm; orphans: 3; widows: 3; }
.transcript .none { color: #555; font-style: italic; }
</style>
</head>
<body>
<section class="cover">
${cover ? `<img src="${cover}" alt="">` : ""}
<h1>${escapeHtml(request.options.title)}</h1>
<p class="byline">${escapeHtml(t("book.byline", { name }))}</p>
<p class="made">${escapeHtml(t("book.made", { appName: context.config.APP_NAME, date: date(now) }))}</p>
</section>
<section class="contents"><h2>${escapeHtml(t("book.contents"))}</h2><ol>${contents(pages)}</ol></section>
${sections.join("\n")}
</body>
</html>`;
  await onProgress(60);
  const pdf = await htmlToPdf(context.config.CHROMIUM_PATH, html(null), {
    format: request.options.paper === "letter" ? "Letter" : "A4",
    revise: async (firstPrint) => html(await anchorPages(firstPrint)),
  });
  await onProgress(90);
  return { kind: "pdf", pdf };
}
