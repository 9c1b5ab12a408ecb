import type { AppContext } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import type { StorageService } from "~/services/storage.server";
import { type ZipEntry, zipLength, zipStream } from "~/services/zip.server";
import { escapeHtml } from "~/utils/html";
import { formatDay, readerTimeZone } from "~/utils/intl-formats";
import type { ExportSummary } from "~/utils/keep-schema";
import { familyName, keepsakeFilename, keepsakeFolder, storiesTitle } from "~/utils/keepsake-name";
import { cleanSegments, clockOf, toWebVtt } from "~/utils/words";
import type { DbOrTx } from "../../db/client";
import type { Language } from "../../db/schema";
import { type ExportScope, type KeptRecording, keptRecordings } from "./keepsake.server";

/**
 * The export zip (decision 023): one folder holding `index.html` (plays everything offline, no
 * JavaScript), `manifest.json` (every file, with its size and type), `photos/`, and per answer
 * `answers/NNN/` with the original recording, the playable copy, `transcript.txt` and
 * `question.txt` (the question, who asked, when). Recordings are streamed from storage when their
 * turn comes; only the small text files are made up front.
 */

const AUDIO_EXTENSIONS: Record<string, string> = {
  "audio/mp4": "m4a",
  "audio/webm": "webm",
  "audio/ogg": "ogg",
  "audio/mpeg": "mp3",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
};
const PHOTO_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
};

type PlannedFile = {
  path: string;
  size: number;
  contentType: string;
  source: { key: string } | { bytes: Uint8Array };
};

export type ExportPlan = {
  /** The folder the zip unpacks into. */
  folder: string;
  /** What the download is called. */
  filename: string;
  createdAt: Date;
  answerCount: number;
  /** The Storytellers whose answers it holds. */
  storytellerIds: string[];
  photoCount: number;
  files: PlannedFile[];
  /** The zip's exact length in bytes. */
  length: number;
};

const encoder = new TextEncoder();
const text = (value: string) => encoder.encode(value);

/** Paths are plain ASCII (numbers and fixed names), so every unzip tool and browser reads them alike. */
const answerFolder = (index: number) => `answers/${String(index + 1).padStart(3, "0")}`;

/** What an export of this scope would hold (sizes read from storage), or null when the user may not see it. */
export async function planExport(
  context: Pick<AppContext, "db" | "storage" | "config">,
  user: { id: string; language: Language; time_zone: string | null },
  scope: ExportScope,
  now = new Date(),
): Promise<ExportPlan | null> {
  const answers = await keptRecordings(context.db, user.id, scope);
  if (!answers) return null;
  return buildPlan(context, user.language, readerTimeZone(user), scope, answers, now);
}

async function buildPlan(
  context: Pick<AppContext, "storage" | "config">,
  language: Language,
  timeZone: string,
  scope: ExportScope,
  answers: KeptRecording[],
  now: Date,
): Promise<ExportPlan> {
  const t = await getServerT(language, context, "keep");
  const { storage } = context;
  // In the zone of whoever asked for it, as their pages and books say it (decision 069).
  const date = (value: Date | null) => (value ? formatDay(language, value, timeZone, "long") : "");
  const files: PlannedFile[] = [];
  const stored = async (path: string, key: string | null, contentType: string) => {
    if (!key) return null;
    const found = await storage.head(key);
    if (!found) return null;
    files.push({ path, size: found.size, contentType, source: { key } });
    return path;
  };
  const written = (path: string, body: string, contentType: string) => {
    const bytes = text(body);
    files.push({ path, size: bytes.byteLength, contentType, source: { bytes } });
    return path;
  };

  // Photos: each Storyteller's, once.
  const photos = new Map<string, string>();
  for (const answer of answers) {
    if (!answer.storyteller_photo || photos.has(answer.storyteller_id)) continue;
    const extension = answer.storyteller_photo.split(".").pop()?.toLowerCase() ?? "";
    const type = PHOTO_TYPES[extension];
    if (!type) continue;
    const path = await stored(`photos/storyteller-${photos.size + 1}.${extension}`, answer.storyteller_photo, type);
    if (path) photos.set(answer.storyteller_id, path);
  }

  const entries = [];
  for (const [index, answer] of answers.entries()) {
    const folder = answerFolder(index);
    const originalExtension = AUDIO_EXTENSIONS[answer.content_type] ?? "audio";
    const original = await stored(`${folder}/original.${originalExtension}`, answer.storage_key, answer.content_type);
    const playable = answer.playable_content_type
      ? await stored(
          `${folder}/playable.${AUDIO_EXTENSIONS[answer.playable_content_type] ?? "audio"}`,
          answer.playable_storage_key,
          answer.playable_content_type,
        )
      : null;
    const transcript = answer.transcript?.trim()
      ? written(`${folder}/transcript.txt`, `${answer.transcript.trim()}\n`, "text/plain; charset=utf-8")
      : null;
    // Captions beside the recording, for any player; the offline page lists them with their times.
    const cues = answer.transcript_status === "done" ? cleanSegments(answer.transcript_segments) : [];
    const captions = cues.some((cue) => cue.text.trim())
      ? written(`${folder}/captions.vtt`, toWebVtt(cues), "text/vtt; charset=utf-8")
      : null;
    const question = written(
      `${folder}/question.txt`,
      [
        `${t("archive.question")}: ${answer.prompt_text}`,
        `${t("archive.storyteller")}: ${answer.storyteller_name}`,
        `${t("archive.askedBy")}: ${answer.asked_by}`,
        answer.asked_at ? `${t("archive.askedOn")}: ${date(answer.asked_at)}` : null,
        `${t("archive.answeredOn")}: ${date(answer.answered_at)}`,
        answer.is_private ? t("archive.private") : null,
        "",
      ]
        .filter((line) => line !== null)
        .join("\n"),
      "text/plain; charset=utf-8",
    );
    entries.push({ answer, folder, original, playable, transcript, captions, cues, question });
  }

  const title =
    scope.kind === "storyteller" && answers[0]
      ? storiesTitle(
          t,
          familyName({ nickname: answers[0].storyteller_nickname, first_name: answers[0].storyteller_name }),
        )
      : t("archive.titleEverything");
  const dateMade = date(now);

  // index.html: plain HTML and CSS, links relative to the folder it sits in.
  const sections: string[] = [];
  let current: string | null = null;
  for (const entry of entries) {
    const { answer } = entry;
    if (answer.storyteller_id !== current) {
      if (current !== null) sections.push("</section>");
      current = answer.storyteller_id;
      const photo = photos.get(answer.storyteller_id);
      sections.push(
        `<section><h2>${photo ? `<img src="${photo}" alt="" width="96" height="96">` : ""}${escapeHtml(answer.storyteller_name)}</h2>`,
      );
    }
    const sources = [entry.playable, entry.original]
      .map((path, i) =>
        path
          ? `<source src="${path}" type="${escapeHtml(i === 0 ? answer.playable_content_type! : answer.content_type)}">`
          : "",
      )
      .join("");
    const meta = [
      t("archive.askedByOn", { name: answer.asked_by, date: date(answer.asked_at) }),
      t("archive.answeredOnDate", { date: date(answer.answered_at) }),
    ];
    sections.push(
      `<article id="answer-${String(entries.indexOf(entry) + 1).padStart(3, "0")}">` +
        `<h3>${escapeHtml(answer.prompt_text)}</h3>` +
        `<p class="meta">${meta.map(escapeHtml).join(" · ")}${answer.is_private ? ` · <strong>${escapeHtml(t("archive.private"))}</strong>` : ""}</p>` +
        (sources
          ? `<audio controls preload="metadata">${sources}${entry.captions ? `<track kind="captions" src="${entry.captions}" srclang="${language}" label="${escapeHtml(t("archive.captions"))}" default>` : ""}</audio>`
          : "") +
        (answer.transcript?.trim()
          ? `<details open><summary>${escapeHtml(t("archive.transcript"))}</summary><p class="transcript">${escapeHtml(answer.transcript.trim())}</p></details>`
          : `<p class="meta">${escapeHtml(t("archive.noTranscript"))}</p>`) +
        (entry.cues.length
          ? `<details class="captions"><summary>${escapeHtml(t("archive.captions"))}</summary><ol>${entry.cues
              .filter((cue) => cue.text.trim())
              .map((cue) => `<li><span class="time">${clockOf(cue.start)}</span> ${escapeHtml(cue.text.trim())}</li>`)
              .join("")}</ol></details>`
          : "") +
        `<p class="files">${[
          entry.original ? `<a href="${entry.original}">${escapeHtml(t("archive.originalFile"))}</a>` : "",
          entry.playable ? `<a href="${entry.playable}">${escapeHtml(t("archive.playableFile"))}</a>` : "",
          entry.transcript ? `<a href="${entry.transcript}">${escapeHtml(t("archive.transcriptFile"))}</a>` : "",
          entry.captions ? `<a href="${entry.captions}">${escapeHtml(t("archive.captionsFile"))}</a>` : "",
          `<a href="${entry.question}">${escapeHtml(t("archive.questionFile"))}</a>`,
        ]
          .filter(Boolean)
          .join(" · ")}</p>` +
        `</article>`,
    );
  }
  if (current !== null) sections.push("</section>");
  const index = `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:"Noto Sans","Noto Sans Devanagari",system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.6;color:#222;background:#fffdf8}
h1{font-size:2rem;margin-bottom:.25rem}h2{margin-top:2.5rem;display:flex;gap:1rem;align-items:center}
h2 img{border-radius:50%;object-fit:cover}article{border-top:1px solid #ddd;padding:1rem 0}
h3{font-size:1.25rem;margin:.25rem 0}.meta{color:#555;font-size:.95rem}audio{width:100%;margin:.5rem 0}
.transcript{white-space:pre-wrap}.captions ol{list-style:none;padding:0}.captions .time{color:#555;font-variant-numeric:tabular-nums;margin-inline-end:.5rem}.files{font-size:.9rem}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(t("archive.intro", { appName: context.config.APP_NAME, date: dateMade, count: answers.length }))}</p>
${answers.length ? sections.join("\n") : `<p>${escapeHtml(t("archive.empty"))}</p>`}
</main>
</body>
</html>
`;
  written("index.html", index, "text/html; charset=utf-8");

  const manifest = {
    format: "heirloom-export",
    version: 1,
    createdAt: now.toISOString(),
    language,
    title,
    scope: scope.kind === "storyteller" ? { storytellerId: scope.storytellerId } : "everything",
    answers: entries.map(({ answer, original, playable, transcript, captions, question }) => ({
      id: answer.id,
      storyteller: answer.storyteller_name,
      question: answer.prompt_text,
      askedBy: answer.asked_by,
      askedAt: answer.asked_at?.toISOString() ?? null,
      answeredAt: answer.answered_at.toISOString(),
      private: answer.is_private,
      durationMs: answer.duration_ms,
      files: { original, playable, transcript, captions, question },
    })),
    // Every file in the folder; this one's own size cannot be inside it.
    files: [
      ...files.map(({ path, size, contentType }) => ({ path, bytes: size, contentType })),
      { path: "manifest.json", bytes: null, contentType: "application/json" },
    ],
  };
  written("manifest.json", `${JSON.stringify(manifest, null, 2)}\n`, "application/json");

  const folder = keepsakeFolder(title, now);
  return {
    folder,
    filename: keepsakeFilename(title, now, "zip"),
    createdAt: now,
    answerCount: answers.length,
    storytellerIds: [...new Set(answers.map((answer) => answer.storyteller_id))],
    photoCount: photos.size,
    files,
    length: zipLength(zipEntries(storage, folder, files, now)),
  };
}

function zipEntries(storage: StorageService, folder: string, files: PlannedFile[], now: Date): ZipEntry[] {
  return files.map((file) => ({
    name: `${folder}/${file.path}`,
    lastModified: now,
    size: file.size,
    open: async () => {
      if ("bytes" in file.source) return file.source.bytes;
      const found = await storage.get(file.source.key);
      if (!found) throw new Error(`export: ${file.source.key} went missing`);
      return found.body;
    },
  }));
}

/** The plan's zip, streamed; `onBytes` hears how many of the files' bytes went in so far. */
export function exportStream(storage: StorageService, plan: ExportPlan, onBytes?: (done: number) => void) {
  return zipStream(zipEntries(storage, plan.folder, plan.files, plan.createdAt), onBytes);
}

/** How many bytes of files the plan holds (what progress is counted against). */
export const planBytes = (plan: ExportPlan) => plan.files.reduce((sum, file) => sum + file.size, 0);

/** The summary a page shows before downloading: counts and size. */
export async function exportSummary(db: DbOrTx, userId: string, scope: ExportScope): Promise<ExportSummary | null> {
  const answers = await keptRecordings(db, userId, scope);
  if (!answers) return null;
  return {
    answers: answers.length,
    withTranscript: answers.filter((answer) => answer.transcript?.trim()).length,
    private: answers.filter((answer) => answer.is_private).length,
    storytellers: new Set(answers.map((answer) => answer.storyteller_id)).size,
    photos: new Set(answers.filter((answer) => answer.storyteller_photo).map((answer) => answer.storyteller_id)).size,
    // From the originals' sizes; the playable copies are about as large again.
    estimatedBytes: answers.reduce((sum, answer) => sum + Number(answer.byte_size), 0) * 2,
  };
}
