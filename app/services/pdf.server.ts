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
  if (!(await chromiumAvailable(executablePath))) throw new ChromiumMissingError(executablePath);
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage({ javaScriptEnabled: false, offline: true });
    await page.route("**/*", (route) =>
      route.request().url().startsWith("data:") ? route.continue() : route.abort("blockedbyclient"),
    );
    const print = async (content: string) => {
      await page.setContent(content, { waitUntil: "load" });
      return new Uint8Array(await page.pdf({ format: options.format, printBackground: true, preferCSSPageSize: true }));
    };
    const first = await print(html);
    return options.revise ? await print(await options.revise(first)) : first;
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
