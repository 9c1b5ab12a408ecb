import { access, constants } from "node:fs/promises";
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef } from "pdf-lib";
import { chromium } from "playwright-core";

/**
 * HTML to PDF through the system Chromium (CHROMIUM_PATH), so Indic scripts are shaped by
 * HarfBuzz with the installed Noto fonts and their text copies out in logical order. The page is
 * given whole (images as data: URLs); every network request is refused.
 */
export class ChromiumMissingError extends Error {
  constructor(path: string) {
    super(`no Chromium at ${path}`);
    this.name = "ChromiumMissingError";
  }
}

/** Whether a Chromium binary is there to print with. */
export async function chromiumAvailable(executablePath: string) {
  try {
    await access(executablePath, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Prints `html`; with `revise`, prints again the HTML it makes from the first PDF (the book's
 * contents need the pages its anchors landed on: Chromium has no CSS target-counter, decision 047).
 */
export async function htmlToPdf(
  executablePath: string,
  html: string,
  options: { format: "A4" | "Letter"; revise?: (firstPrint: Uint8Array) => Promise<string> },
): Promise<Uint8Array> {
  return withPrinter(executablePath, options.format, async (print) => {
    const first = await print(html);
    return options.revise ? await print(await options.revise(first)) : first;
  });
}

/**
 * One Chromium for several prints: `use` gets a `print(html)` that returns the PDF. A page's CSS
 * `@page { size }` wins over `format` (the print-ready book's trim plus bleed).
 */
export async function withPrinter<T>(
  executablePath: string,
  format: "A4" | "Letter",
  use: (print: (html: string) => Promise<Uint8Array>) => Promise<T>,
): Promise<T> {
  if (!(await chromiumAvailable(executablePath))) throw new ChromiumMissingError(executablePath);
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage({ javaScriptEnabled: false, offline: true });
    await page.route("**/*", (route) =>
      route.request().url().startsWith("data:") ? route.continue() : route.abort("blockedbyclient"),
    );
    return await use(async (content) => {
      await page.setContent(content, { waitUntil: "load" });
      return new Uint8Array(await page.pdf({ format, printBackground: true, preferCSSPageSize: true }));
    });
  } finally {
    await browser.close();
  }
}

/**
 * The page (1-based) each element id of the printed HTML starts on: Chromium writes an anchor that
 * a link points to as a named destination ("/Dests" in the catalog) naming its page.
 */
export async function anchorPages(pdf: Uint8Array): Promise<Map<string, number>> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  const pageOf = new Map(document.getPages().map((page, index) => [page.ref.toString(), index + 1]));
  const found = new Map<string, number>();
  const dests = document.catalog.lookupMaybe(PDFName.of("Dests"), PDFDict);
  for (const [name, value] of dests?.entries() ?? []) {
    const target = document.context.lookup(value);
    const ref = target instanceof PDFArray ? target.get(0) : null;
    const page = ref instanceof PDFRef ? pageOf.get(ref.toString()) : undefined;
    if (page) found.set(name.decodeText(), page);
  }
  return found;
}

/** What a printer checks of a file: its pages' sizes (points, the media box) and fonts not embedded. */
export type PrintFileFacts = {
  pages: { width: number; height: number }[];
  /** Fonts drawn from outside the file (a Type 3 font's glyphs are in the file). */
  unembeddedFonts: string[];
};

const FONT_FILES = ["FontFile", "FontFile2", "FontFile3"].map((name) => PDFName.of(name));

export async function printFileFacts(pdf: Uint8Array): Promise<PrintFileFacts> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  const unembedded = new Set<string>();
  const seen = new Set<PDFDict>();
  const lookupDict = (value: unknown) => {
    const found = value instanceof PDFRef ? document.context.lookup(value) : value;
    return found instanceof PDFDict ? found : undefined;
  };
  const embedded = (font: PDFDict): boolean => {
    const subtype = font.get(PDFName.of("Subtype"));
    if (subtype === PDFName.of("Type3")) return true;
    if (subtype === PDFName.of("Type0")) {
      const descendants = font.lookupMaybe(PDFName.of("DescendantFonts"), PDFArray);
      const descendant = descendants ? lookupDict(descendants.get(0)) : undefined;
      return !!descendant && embedded(descendant);
    }
    const descriptor = lookupDict(font.get(PDFName.of("FontDescriptor")));
    return !!descriptor && FONT_FILES.some((name) => descriptor.has(name));
  };
  // Fonts sit in a page's resources and in those of the forms it draws.
  const walk = (resources: PDFDict | undefined) => {
    if (!resources || seen.has(resources)) return;
    seen.add(resources);
    const fonts = lookupDict(resources.get(PDFName.of("Font")));
    for (const [, value] of fonts?.entries() ?? []) {
      const font = lookupDict(value);
      if (font && !embedded(font)) unembedded.add(font.get(PDFName.of("BaseFont"))?.toString() ?? "?");
    }
    const objects = lookupDict(resources.get(PDFName.of("XObject")));
    for (const [, value] of objects?.entries() ?? []) {
      const object = value instanceof PDFRef ? document.context.lookup(value) : value;
      const dict = object && "dict" in object ? (object as { dict: PDFDict }).dict : undefined;
      if (dict?.get(PDFName.of("Subtype")) === PDFName.of("Form")) walk(lookupDict(dict.get(PDFName.of("Resources"))));
    }
  };
  const pages = document.getPages().map((page) => {
    walk(page.node.Resources());
    const { width, height } = page.getMediaBox();
    return { width, height };
  });
  return { pages, unembeddedFonts: [...unembedded] };
}
