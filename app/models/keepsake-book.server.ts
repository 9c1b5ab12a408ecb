import { z } from "zod";
import type { AppContext } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import { anchorPages, printFileFacts, withPrinter } from "~/services/pdf.server";
import { qrSvg } from "~/services/qr.server";
import { escapeHtml } from "~/utils/html";
import { formatDay, readerTimeZone } from "~/utils/intl-formats";
import { familyName } from "~/utils/keepsake-name";
import {
  BINDINGS,
  BLEED,
  coverSpread,
  GUTTER,
  interiorPageSize,
  paddedPageCount,
  points,
  SAFE_MARGIN,
  TRIM_NAMES,
  TRIMS,
} from "~/utils/print-geometry";
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
  // Print-ready files for a printer or copy shop instead of the home PDF (decision 081).
  print: z.object({ trim: z.enum(TRIM_NAMES), binding: z.enum(BINDINGS) }).optional(),
});

/** An answer's anchor: the contents link to it, and the first print says on which page it starts. */
const anchorOf = (index: number) => `answer-${index + 1}`;

const PHOTO_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
};

export type BookRequest = {
  userId: string;
  storytellerId: string;
  options: BookOptions;
};

/** A print-ready book: its interior and cover, each checked as the printer will check it. */
export type PrintReadyBook = { interior: Uint8Array; cover: Uint8Array; pages: number; spine: number };

export type BuildBookResult =
  { kind: "pdf"; pdf: Uint8Array } | { kind: "print"; files: PrintReadyBook } | { kind: "not-found" };

/** A print-ready file that is not what the printer asked for (never sent, the job fails). */
export class PrintCheckError extends Error {
  constructor(problems: string[]) {
    super(`print-ready file refused: ${problems.join("; ")}`);
    this.name = "PrintCheckError";
  }
}

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
  const print = request.options.print;
  // A print-ready interior: the trim plus its bleed, text inside the safe margin, wider at the
  // binding; the page number sits low but inside the safe area. A home print: A4 or Letter.
  const trim = print ? TRIMS[print.trim] : null;
  const pageCss = trim
    ? (() => {
        const outer = BLEED + SAFE_MARGIN;
        const inner = outer + GUTTER;
        return `@page { size: ${inch(trim.width + 2 * BLEED)} ${inch(trim.height + 2 * BLEED)}; margin: ${inch(outer)} ${inch(outer)} ${inch(PRINT_BOTTOM)} ${inch(outer)}; @bottom-center { content: counter(page); font: 9pt "Noto Serif", serif; color: #555; } }
@page :first { @bottom-center { content: none; } }
@page :left { margin-left: ${inch(outer)}; margin-right: ${inch(inner)}; }
@page :right { margin-left: ${inch(inner)}; margin-right: ${inch(outer)}; }`;
      })()
    : `@page { size: ${request.options.paper === "letter" ? "letter" : "A4"}; margin: 22mm 18mm 24mm 18mm; @bottom-center { content: counter(page); font: 9pt "Noto Serif", serif; color: #555; } }
@page :first { @bottom-center { content: none; } }
@page :left { margin-left: 18mm; margin-right: 28mm; }
@page :right { margin-left: 28mm; margin-right: 18mm; }`;
  // The height one page's content box holds: the title page fills it, and so does a notes page.
  const pageHeight = trim ? inch(trim.height + 2 * BLEED - (BLEED + SAFE_MARGIN) - PRINT_BOTTOM - 0.1) : "230mm";
  const notes = (count: number) =>
    Array.from(
      { length: count },
      () => `<section class="notes"><h2>${escapeHtml(t("book.notes"))}</h2><div class="lines"></div></section>`,
    ).join("\n");
  const html = (pages: Map<string, number> | null, padding = 0) => `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<title>${escapeHtml(request.options.title)}</title>
<style>
${pageCss}
html { font-family: ${FONT_STACK}; font-size: 12pt; color: #1d1d1d; }
body { margin: 0; }
.cover { height: ${pageHeight}; display: flex; flex-direction: column; align-items: center; justify-content: center; text-align: center; break-after: page; }
.cover h1 { font-size: ${trim ? 26 : 30}pt; margin: 0 0 6mm; line-height: 1.3; }
.cover img { width: ${trim ? 70 : 90}mm; height: ${trim ? 70 : 90}mm; object-fit: cover; border-radius: 4mm; margin-bottom: 12mm; }
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
.answer header { display: flex; gap: ${trim ? 5 : 8}mm; align-items: flex-start; justify-content: space-between; break-inside: avoid; break-after: avoid; }
.answer .number { color: #8a6d3b; font-size: 11pt; margin: 0 0 2mm; }
.answer h2 { font-size: ${trim ? 16 : 18}pt; line-height: 1.4; margin: 0 0 3mm; }
.answer .meta { color: #555; font-size: 10pt; margin: 0; }
.qr { margin: 0; width: 36mm; flex: none; text-align: center; }
.qr svg { width: 36mm; height: 36mm; }
.qr figcaption { font-size: 8pt; color: #555; line-height: 1.3; }
.transcript { margin-top: 8mm; line-height: 1.7; text-align: start; }
.transcript p { margin: 0 0 4mm; orphans: 3; widows: 3; }
.transcript .none { color: #555; font-style: italic; }
.notes { break-before: page; height: ${pageHeight}; display: flex; flex-direction: column; overflow: hidden; }
.notes h2 { font-size: 14pt; font-weight: normal; color: #8a6d3b; margin: 0 0 6mm; }
.notes .lines { flex: 1; background: repeating-linear-gradient(to bottom, transparent 0, transparent 9mm, #d8ccb0 9mm, #d8ccb0 9.3mm); }
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
${notes(padding)}
</body>
</html>`;
  await onProgress(60);
  const format = request.options.paper === "letter" ? "Letter" : "A4";
  if (!print) {
    const pdf = await withPrinter(context.config.CHROMIUM_PATH, format, async (printHtml) =>
      printHtml(html(await anchorPages(await printHtml(html(null))))),
    );
    await onProgress(90);
    return { kind: "pdf", pdf };
  }
  const back = await getServerT(storyteller.language, context, "keep");
  const files = await withPrinter(context.config.CHROMIUM_PATH, format, async (printHtml) => {
    const numbered = html(await anchorPages(await printHtml(html(null))));
    let interior = await printHtml(numbered);
    const printed = (await printFileFacts(interior)).pages.length;
    // Padded with notes pages after the last answer, so no page number in the contents moves.
    const pages = paddedPageCount(printed, print.binding);
    if (pages > printed) interior = await printHtml(html(await anchorPages(interior), pages - printed));
    await onProgress(80);
    const spread = coverSpread(print.trim, print.binding, pages);
    if (!spread) throw new PrintCheckError([`${pages} pages is more than a ${print.binding} binds`]);
    const coverPdf = await printHtml(
      coverHtml({
        language,
        title: request.options.title,
        byline: t("book.byline", { name }),
        backLine: { language: storyteller.language, text: back("book.backLine", { name }) },
        made: t("book.made", { appName: context.config.APP_NAME, date: date(now) }),
        photo: cover,
        spread,
        // Lulu prints words on a spine from 80 pages; thinner spines stay plain.
        spineText: pages >= 80,
      }),
    );
    const expected = interiorPageSize(print.trim);
    await checkPrintFile(interior, { ...expected, pages });
    await checkPrintFile(coverPdf, { width: points(spread.width), height: points(spread.height), pages: 1 });
    return { interior, cover: coverPdf, pages, spine: spread.spine };
  });
  await onProgress(90);
  return { kind: "print", files };
}

const inch = (value: number) => `${value}in`;

/** The print-ready interior's bottom margin: the page number sits inside the safe area above the trim. */
const PRINT_BOTTOM = 1.4;

const FONT_STACK = `"Noto Serif", "Noto Serif Devanagari", "Noto Sans Devanagari", "Noto Color Emoji", serif`;

/**
 * A point either way (0.35 mm, far inside the printer's trim variance): Chromium rounds a page
 * whose width is no whole number of points by up to 0.6 pt.
 */
const SIZE_TOLERANCE = 1;

/**
 * Checks a print-ready file as the printer will (its page size with bleed in points, every font
 * embedded, its page count); throws PrintCheckError, so nothing wrong is ever offered or sent.
 */
export async function checkPrintFile(pdf: Uint8Array, expected: { width: number; height: number; pages: number }) {
  const facts = await printFileFacts(pdf);
  const problems: string[] = [];
  if (facts.pages.length !== expected.pages) problems.push(`${facts.pages.length} pages, not ${expected.pages}`);
  for (const [index, page] of facts.pages.entries()) {
    if (
      Math.abs(page.width - expected.width) > SIZE_TOLERANCE ||
      Math.abs(page.height - expected.height) > SIZE_TOLERANCE
    )
      problems.push(
        `page ${index + 1} is ${page.width} × ${page.height} pt, not ${expected.width} × ${expected.height}`,
      );
  }
  if (facts.unembeddedFonts.length) problems.push(`fonts not embedded: ${facts.unembeddedFonts.join(", ")}`);
  if (problems.length) throw new PrintCheckError(problems);
}

/**
 * The cover as one spread: back, spine, front, the background running to every outer edge (the
 * bleed, or a casewrap's wrap). Words stay a safe margin inside the board's edges.
 */
export function coverHtml(cover: {
  language: string;
  title: string;
  byline: string;
  backLine: { language: string; text: string };
  made: string;
  photo: string;
  spread: NonNullable<ReturnType<typeof coverSpread>>;
  spineText: boolean;
}) {
  const { spread } = cover;
  // From the file's outer edges to the words: the wrap or bleed, a casewrap board's overhang, the safe margin.
  const outer = spread.edge + SAFE_MARGIN;
  const vertical = (spread.height - spread.boardHeight) / 2 + SAFE_MARGIN;
  const panel = (side: "back" | "front", content: string) =>
    `<div class="panel ${side}" style="${side === "back" ? "left" : "right"}: 0; padding-${side === "back" ? "left" : "right"}: ${inch(outer)}; padding-${side === "back" ? "right" : "left"}: ${inch(SAFE_MARGIN)};">${content}</div>`;
  return `<!doctype html>
<html lang="${cover.language}">
<head>
<meta charset="utf-8">
<style>
@page { size: ${inch(spread.width)} ${inch(spread.height)}; margin: 0; }
html { font-family: ${FONT_STACK}; color: #f6efe0; }
body { margin: 0; }
.spread { position: relative; width: ${inch(spread.width)}; height: ${inch(spread.height)}; background: #2f4a3e; overflow: hidden; }
.panel { position: absolute; top: 0; box-sizing: border-box; width: ${inch(spread.panel)}; height: 100%; padding-top: ${inch(vertical)}; padding-bottom: ${inch(vertical)}; display: flex; flex-direction: column; align-items: center; justify-content: center; text-align: center; }
.front h1 { font-size: 28pt; line-height: 1.3; margin: 0 0 6mm; }
.front img { width: 60mm; height: 60mm; object-fit: cover; border-radius: 4mm; margin-bottom: 10mm; border: 1mm solid #f6efe0; }
.front .byline { font-size: 15pt; margin: 0; }
.back .line { font-size: 14pt; line-height: 1.6; margin: 0 0 10mm; }
.back .made { font-size: 9pt; opacity: 0.8; margin: 0; }
.spine { position: absolute; top: 0; left: ${inch(spread.panel)}; width: ${inch(spread.spine)}; height: 100%; background: #27402f; display: flex; align-items: center; justify-content: center; }
.spine p { writing-mode: vertical-rl; font-size: 10pt; margin: 0; white-space: nowrap; }
</style>
</head>
<body>
<div class="spread">
${panel("back", `<p class="line" lang="${cover.backLine.language}">${escapeHtml(cover.backLine.text)}</p><p class="made">${escapeHtml(cover.made)}</p>`)}
<div class="spine">${cover.spineText ? `<p>${escapeHtml(cover.title)} · ${escapeHtml(cover.byline)}</p>` : ""}</div>
${panel("front", `${cover.photo ? `<img src="${cover.photo}" alt="">` : ""}<h1>${escapeHtml(cover.title)}</h1><p class="byline">${escapeHtml(cover.byline)}</p>`)}
</div>
</body>
</html>`;
}
