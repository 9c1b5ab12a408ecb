import { cleanSegments, toWebVtt, type WordsView } from "~/utils/words";
import type { DbOrTx } from "../../db/client";

/**
 * An answer's captions (WebVTT) from its words' timings, or null when it has none. Only after the
 * caller's access check, the same one as the answer's audio (answerForListener, answerForShareToken,
 * answerForListenToken): whoever may hear the voice may read its words, nobody else.
 */
export async function captionsOfHeardAnswer(db: DbOrTx, answerId: string): Promise<string | null> {
  const row = await db
    .selectFrom("answers")
    .select(["transcript_segments", "transcript_status"])
    .where("id", "=", answerId)
    .executeTakeFirst();
  const segments = row?.transcript_status === "done" ? cleanSegments(row.transcript_segments) : [];
  return segments.some((segment) => segment.text.trim()) ? toWebVtt(segments) : null;
}

/** How captions are sent: as text for the player, never sniffed, never guessed from a name. */
export const captionsHeaders = {
  "Content-Type": "text/vtt; charset=utf-8",
  "X-Content-Type-Options": "nosniff",
} as const;

/**
 * An answer's words for a public page (share and listen links), after the caller's access check:
 * the words and their timings only, nothing about who corrected them.
 */
export async function wordsOfHeardAnswer(db: DbOrTx, answerId: string): Promise<WordsView> {
  const row = await db
    .selectFrom("answers")
    .select(["transcript", "transcript_status", "transcript_segments"])
    .where("id", "=", answerId)
    .executeTakeFirst();
  return {
    status: row?.transcript_status ?? "pending",
    transcript: row?.transcript ?? null,
    segments: cleanSegments(row?.transcript_segments),
    corrected: null,
    heardAgain: false,
  };
}
