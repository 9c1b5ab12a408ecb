import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runOnce } from "graphile-worker";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, describe, expect, it } from "vitest";
import { checkPrintFile, coverHtml, PrintCheckError } from "~/models/keepsake-book.server";
import { loader as downloadLoader } from "~/routes/dashboard_.keep.$id.download";
import { printFileFacts, withPrinter } from "~/services/pdf.server";
import { coverSpread } from "~/utils/print-geometry";
import { createTaskList } from "../../../jobs/task-list";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { get, outcome, post, signedInUser } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import { createAnswer, createPrompt, createStoryteller } from "../../../tests/factories";
import { waitForJobsToSettle } from "../../../tests/jobs";
import { pngPhoto, run } from "../../../tests/keep-fixtures";
import { action, loader } from "./route";

// Print-ready files (decision 081): what a printer or copy shop is handed, measured as it measures.
const database = useTestDatabase();
const scratch: string[] = [];

afterAll(async () => {
  await rm(path.join(os.tmpdir(), `heirloom-test-files-${database.name}`), { recursive: true, force: true });
  for (const directory of scratch) await rm(directory, { recursive: true, force: true });
});

async function folder() {
  const directory = await mkdtemp(path.join(os.tmpdir(), "keep-print-"));
  scratch.push(directory);
  return directory;
}

const flat = (text: string) => text.replace(/\s+/g, " ");
const pageSize = async (pdf: string) =>
  (await run("pdfinfo", [pdf])).stdout.match(/Page size:\s+([\d.]+) x ([\d.]+) pts/)!;
const pageCount = async (pdf: string) => Number((await run("pdfinfo", [pdf])).stdout.match(/Pages:\s+(\d+)/)![1]);

/** Every font pdffonts lists is embedded (a Type 3 font's glyphs are drawn in the file itself). */
async function expectFontsEmbedded(pdf: string) {
  const rows = (await run("pdffonts", [pdf])).stdout.trim().split("\n").slice(2);
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    if (/Type 3/.test(row)) continue;
    expect(row, row).toMatch(/\s+yes\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+$/);
  }
}

async function family(language: "en" | "hi") {
  const context = makeTestContext(database);
  const owner = await signedInUser(database, { language: "en", first_name: language === "hi" ? "आशा" : "Priya" });
  const photoKey = `profile/${owner.id}/photo.png`;
  await context.storage.put(photoKey, await pngPhoto(), "image/png");
  const st = await createStoryteller(database.db, {
    ownerId: owner.id,
    firstName: language === "hi" ? "कमला" : "Rose",
    nickname: language === "hi" ? "नानी" : "Nani",
    language,
    timeZone: "Asia/Kolkata",
    profilePicKey: photoKey,
    prompts: [],
  });
  const stories =
    language === "hi"
      ? [
          ["बचपन में आपका सबसे प्रिय त्योहार कौन सा था?", "दिवाली पर हम मिट्टी के दिये जलाते थे और माँ खीर बनाती थीं।"],
          ["आपकी शादी के दिन क्या हुआ था?", "उस दिन बारिश हुई थी, फिर भी पूरा गाँव आया था।"],
        ]
      : [
          ["Where did you grow up?", "On a farm by the river."],
          ["How did you meet Grandpa?", "At a dance in the village hall."],
        ];
  const ids: string[] = [];
  for (const [question, words] of stories) {
    const prompt = await createPrompt(database.db, {
      storytellerId: st.id,
      text: question,
      sentAt: new Date(),
      createdBy: owner.id,
    });
    const answer = await createAnswer(database.db, {
      storytellerId: st.id,
      promptId: prompt.id,
      storage: context.storage,
      transcript: words,
      transcriptStatus: "done",
    });
    ids.push(answer.id);
  }
  return { owner, st, ids, stories };
}

type User = Awaited<ReturnType<typeof signedInUser>>;

/** Asks for print-ready files as the keep page's plain form does, runs the job and unzips the download. */
async function printReady(owner: User, storytellerId: string, fields: Record<string, string | string[]>) {
  const queued = await outcome(() =>
    action({
      request: post(owner.jar, `/dashboard/recipient/${storytellerId}/keep`, { intent: "print", ...fields }),
      context: makeTestContext(database),
      params: { id: storytellerId },
      ...routeArgs,
    }),
  );
  expect(queued).toMatchObject({ status: 302, location: `/dashboard/recipient/${storytellerId}/keep` });
  await runOnce({ pgPool: database.pool, taskList: createTaskList(makeTestContext(database)) });
  await waitForJobsToSettle(database.db);
  const page = (await loader({
    request: get(owner.jar, `/dashboard/recipient/${storytellerId}/keep`),
    context: makeTestContext(database),
    params: { id: storytellerId },
    ...routeArgs,
  })) as { keepsakes: { id: string; kind: string; print: boolean; status: string; error: string | null }[] };
  const [made] = page.keepsakes;
  expect(made).toMatchObject({ kind: "book", print: true, status: "ready", error: null });
  const response = (await downloadLoader({
    request: get(owner.jar, `/dashboard/keep/${made.id}/download`),
    context: makeTestContext(database),
    params: { id: made.id },
    ...routeArgs,
  })) as Response;
  expect(response.headers.get("Content-Type")).toBe("application/zip");
  expect(response.headers.get("Content-Disposition")).toMatch(/\.zip/);
  const directory = await folder();
  const zip = path.join(directory, "print.zip");
  await writeFile(zip, new Uint8Array(await response.arrayBuffer()));
  await run("unzip", ["-q", zip, "-d", directory]);
  expect((await readdir(directory)).sort()).toEqual(["cover.pdf", "interior.pdf", "print.zip"]);
  return { directory, interior: path.join(directory, "interior.pdf"), cover: path.join(directory, "cover.pdf") };
}

describe("print-ready book files", () => {
  it("makes a 6 × 9 in hardcover in Hindi: bleed on every side, fonts embedded, 24 pages, a cover spread sized by the spine", async () => {
    const { owner, st, ids, stories } = await family("hi");
    const { directory, interior, cover } = await printReady(owner, st.id, {
      title: "नानी की कहानियाँ",
      paper: "a4",
      cover: "storyteller",
      language: "hi",
      include: ids,
      trim: "6x9",
      binding: "hardcover",
    });

    // 6 × 9 in plus 0.125 in on every side: 6.25 × 9.25 in.
    expect((await pageSize(interior)).slice(1)).toEqual(["450", "666"]);
    // A few pages of answers, padded with notes pages to the hardcover's 24.
    expect(await pageCount(interior)).toBe(24);
    await expectFontsEmbedded(interior);
    const text = flat((await run("pdftotext", ["-enc", "UTF-8", interior, "-"])).stdout);
    for (const [question, words] of stories) {
      expect(text).toContain(question);
      expect(text).toContain(words);
    }
    expect(text).toContain("नानी की ज़ुबानी");
    expect(text).toContain("टिप्पणियाँ");
    const lastPage = (await run("pdftotext", ["-enc", "UTF-8", "-f", "24", "-l", "24", interior, "-"])).stdout;
    expect(lastPage).toContain("टिप्पणियाँ");

    // The codes still scan at print resolution (300 dpi), each opening a listen link.
    await run("pdftoppm", ["-r", "300", "-png", "-f", "3", "-l", "4", interior, path.join(directory, "page")]);
    const urls: string[] = [];
    for (const png of (await readdir(directory)).filter((name) => name.endsWith(".png"))) {
      const scanned = await run("zbarimg", ["--quiet", "--raw", path.join(directory, png)]).catch(() => ({
        stdout: "",
      }));
      urls.push(...scanned.stdout.trim().split("\n").filter(Boolean));
    }
    expect(urls).toHaveLength(2);
    for (const url of urls) expect(url).toMatch(/^http:\/\/localhost:3000\/l\/[^/]+$/);

    // The casewrap cover: 0.75 in wrap and the board's overhang around 6 × 9 in, and the 24-page
    // spine (0.25 in): 13.75 + 0.25 in by 10.75 in.
    expect((await pageSize(cover)).slice(1)).toEqual(["1008", "774"]);
    expect(await pageCount(cover)).toBe(1);
    await expectFontsEmbedded(cover);
    const coverText = flat((await run("pdftotext", ["-enc", "UTF-8", cover, "-"])).stdout);
    expect(coverText).toContain("नानी की कहानियाँ");
    expect(coverText).toContain("नानी की ज़ुबानी");
    expect(coverText).toContain("इस किताब की हर कहानी नानी ने अपनी आवाज़ में सुनाई है।");
    expect((await run("pdfimages", ["-list", cover])).stdout).toMatch(/\n\s+1\s+0\s+image/);
  });

  it("makes an 8.5 × 8.5 in paperback in English, padded to the paperback's 32 pages, its back line in her language", async () => {
    const { owner, st, ids, stories } = await family("en");
    const { interior, cover } = await printReady(owner, st.id, {
      title: "Nani's stories",
      paper: "letter",
      cover: "none",
      language: "en",
      include: ids,
      trim: "8.5x8.5",
      binding: "paperback",
    });
    expect((await pageSize(interior)).slice(1)).toEqual(["630", "630"]);
    expect(await pageCount(interior)).toBe(32);
    await expectFontsEmbedded(interior);
    const text = flat((await run("pdftotext", ["-enc", "UTF-8", interior, "-"])).stdout);
    for (const [question] of stories) expect(text).toContain(question);
    // A paperback's cover: 0.125 in bleed around two 8.5 in panels and a 32-page spine (32 / 444 + 0.06 in).
    const [, width, height] = await pageSize(cover);
    expect(Math.abs(Number(width) - 72 * (2 * 8.625 + 32 / 444 + 0.06))).toBeLessThan(1);
    expect(height).toBe("630");
    const coverText = flat((await run("pdftotext", ["-enc", "UTF-8", cover, "-"])).stdout);
    expect(coverText).toContain("Nani's stories");
    expect(coverText).toContain("Nani told every story in this book in their own voice.");
  });

  it("sizes the cover spread for 24, 100 and 400 pages by the spine rule, and refuses a file the printer would", async () => {
    const directory = await folder();
    const { CHROMIUM_PATH } = makeTestContext(database).config;
    const widths: Record<number, number> = {};
    await withPrinter(CHROMIUM_PATH, "Letter", async (print) => {
      for (const pages of [24, 100, 400]) {
        const spread = coverSpread("6x9", "hardcover", pages)!;
        const pdf = await print(
          coverHtml({
            language: "en",
            title: "Nani's stories",
            byline: "Told by Nani",
            backLine: { language: "hi", text: "इस किताब की हर कहानी नानी ने अपनी आवाज़ में सुनाई है।" },
            made: "Made with Heirloom",
            photo: "",
            spread,
            spineText: pages >= 80,
          }),
        );
        const file = path.join(directory, `cover-${pages}.pdf`);
        await writeFile(file, pdf);
        const [, width, height] = await pageSize(file);
        expect(height).toBe("774");
        widths[pages] = Number(width);
        // Lulu's casewrap spine table: 0.25 in to 84 pages, 0.5 in to 140, 1.1875 in for 389–416.
        await checkPrintFile(pdf, { width: 72 * (13.75 + spread.spine), height: 774, pages: 1 });
        if (pages >= 80)
          expect(flat((await run("pdftotext", [file, "-"])).stdout)).toContain("Nani's stories · Told by Nani");
      }
      // A page of the wrong size is refused.
      const small = await print("<!doctype html><style>@page { size: 6in 9in; margin: 0 }</style><p>x</p>");
      await expect(checkPrintFile(small, { width: 450, height: 666, pages: 1 })).rejects.toThrow(PrintCheckError);
    });
    // Chromium rounds a width that is no whole number of points by under one.
    expect(widths[24]).toBe(72 * 14);
    expect(widths[100]).toBe(72 * 14.25);
    expect(Math.abs(widths[400] - 72 * (13.75 + 1.1875))).toBeLessThan(1);

    // A font left outside the file (a standard Helvetica reference) is found and refused.
    const document = await PDFDocument.create();
    const page = document.addPage([450, 666]);
    page.drawText("Nani", { font: await document.embedFont(StandardFonts.Helvetica) });
    const unembedded = await document.save();
    expect((await printFileFacts(unembedded)).unembeddedFonts).toEqual(["/Helvetica"]);
    await expect(checkPrintFile(unembedded, { width: 450, height: 666, pages: 1 })).rejects.toThrow(/not embedded/);
  });

  it("refuses a trim size or binding not offered, on its field", async () => {
    const { owner, st, ids } = await family("en");
    const refused = await outcome(() =>
      action({
        request: post(owner.jar, `/dashboard/recipient/${st.id}/keep`, {
          intent: "print",
          title: "Nani's stories",
          paper: "a4",
          cover: "none",
          language: "en",
          include: ids,
          trim: "A5",
          binding: "spiral",
        }),
        context: makeTestContext(database),
        params: { id: st.id },
        ...routeArgs,
      }),
    );
    expect(refused.status).toBe(400);
    expect((refused.data as { result: { error: Record<string, string[]> } }).result.error).toMatchObject({
      trim: ["keep:book.pickTrim"],
      binding: ["keep:book.pickBinding"],
    });
    expect(await database.db.selectFrom("keepsakes").select("id").where("user_id", "=", owner.id).execute()).toEqual(
      [],
    );
  });
});
