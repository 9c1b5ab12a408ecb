import { access, constants } from "node:fs/promises";
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

export async function htmlToPdf(
  executablePath: string,
  html: string,
  options: { format: "A4" | "Letter" },
): Promise<Uint8Array> {
  if (!(await chromiumAvailable(executablePath))) throw new ChromiumMissingError(executablePath);
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage({ javaScriptEnabled: false, offline: true });
    await page.route("**/*", (route) =>
      route.request().url().startsWith("data:") ? route.continue() : route.abort("blockedbyclient"),
    );
    await page.setContent(html, { waitUntil: "load" });
    const pdf = await page.pdf({ format: options.format, printBackground: true, preferCSSPageSize: true });
    return new Uint8Array(pdf);
  } finally {
    await browser.close();
  }
}
