import type { AppContext } from "~/context.server";
import { exportSummary } from "~/models/keepsake-archive.server";
import {
  keepStoryteller,
  keptAnswers,
  listKeepsakes,
  listListenLinks,
  requestBook,
  revokeListenLink,
  setBookCover,
} from "~/models/keepsake.server";
import { checkPhoto, COVER_MAX_SIDE, MAX_PHOTO_BYTES } from "~/services/images.server";
import { chromiumAvailable } from "~/services/pdf.server";
import { storageKeys } from "~/services/storage-keys";
import { familyName } from "~/utils/keepsake-name";
import { readMultipart } from "~/utils/request-body.server";

/** The keep page's data, or null when the user may not see this Storyteller. */
export async function keepPage(context: AppContext, userId: string, storytellerId: string) {
  const storyteller = await keepStoryteller(context.db, userId, storytellerId);
  if (!storyteller) return null;
  const scope = { kind: "storyteller", storytellerId } as const;
  const [summary, answers, keepsakes, links, canPrint] = await Promise.all([
    exportSummary(context.db, userId, scope),
    keptAnswers(context.db, userId, scope),
    listKeepsakes(context.db, userId, { storytellerId }),
    listListenLinks(context.db, userId, storytellerId),
    chromiumAvailable(context.config.CHROMIUM_PATH),
  ]);
  return {
    storyteller: {
      id: storyteller.id,
      firstName: storyteller.first_name,
      // What the family calls her ("Grandma Rose"): the book's default title and cover say it.
      name: familyName(storyteller),
      language: storyteller.language,
      hasPhoto: !!storyteller.profile_pic_key,
      hasCover: !!storyteller.book_cover_key,
    },
    summary: summary!,
    answers: (answers ?? []).map((answer) => ({
      id: answer.id,
      question: answer.prompt_text,
      answeredAt: answer.answered_at.toISOString(),
      // The words are still to come: the keep page says so before the book is printed.
      wordsComing: answer.transcript_status === "pending" || answer.transcript_status === "waiting",
    })),
    keepsakes,
    links: links.map((link) => ({ id: link.id, question: link.prompt_text, createdAt: link.created_at.toISOString() })),
    canPrint,
    limitMb: context.config.EXPORT_STREAM_MAX_MB,
  };
}

/**
 * The answers in the order the form gave: by their "position-<id>" numbers, ties (and missing or
 * unreadable numbers) keeping the order the answers were listed in.
 */
export function orderedAnswerIds(form: FormData, included: string[]) {
  return included
    .map((id, index) => {
      const position = Number(form.get(`position-${id}`));
      return { id, index, position: Number.isFinite(position) ? position : Number.MAX_SAFE_INTEGER };
    })
    .sort((a, b) => a.position - b.position || a.index - b.index)
    .map(({ id }) => id);
}

export { chromiumAvailable, requestBook, revokeListenLink };

/** `unread`: refused by its declared size, before a byte of the photo was read. */
export type SaveCoverResult =
  { kind: "saved" } | { kind: "refused"; error: string; unread?: boolean } | { kind: "not-found" };

/**
 * The cover form's photo (decision 047): checked and re-encoded like a profile photo (by its bytes,
 * 5 MB at most, no metadata kept), larger for print, then kept for the Storyteller's books.
 */
export async function saveCover(
  context: AppContext,
  request: Request,
  userId: string,
  storytellerId: string,
): Promise<SaveCoverResult> {
  const refuse = (error: string) => ({ kind: "refused", error }) as const;
  // Who may keep her books is known before a photo is read, re-encoded and stored.
  if (!(await keepStoryteller(context.db, userId, storytellerId))) return { kind: "not-found" };
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_PHOTO_BYTES + 64 * 1024)
    return { ...refuse("keep:cover.tooLarge"), unread: true };
  const body = await readMultipart(request, {
    fileFields: ["photo"],
    maxFileBytes: MAX_PHOTO_BYTES,
    maxFieldBytes: 1000,
  });
  if (!body.ok) return refuse(body.problem === "tooLarge" ? "keep:cover.tooLarge" : "keep:cover.notImage");
  const photo = body.form.get("photo");
  if (!(photo instanceof File) || photo.size === 0) return refuse("keep:cover.pickPhoto");
  const checked = await checkPhoto(photo, COVER_MAX_SIDE);
  if (!checked.ok) return refuse(checked.error === "tooLarge" ? "keep:cover.tooLarge" : "keep:cover.notImage");
  const key = storageKeys.bookCover(storytellerId, checked.extension);
  await context.storage.put(key, checked.bytes, checked.contentType);
  const saved = await setBookCover(context.db, userId, storytellerId, key);
  if (saved.kind === "not-found") {
    await context.storage.delete(key);
    return saved;
  }
  if (saved.replaced) await context.storage.delete(saved.replaced);
  return { kind: "saved" };
}
