import type { AppContext } from "~/context.server";
import { exportSummary } from "~/models/keepsake-archive.server";
import {
  keepStoryteller,
  keptAnswers,
  listKeepsakes,
  listListenLinks,
  requestBook,
  revokeListenLink,
} from "~/models/keepsake.server";
import { chromiumAvailable } from "~/services/pdf.server";

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
    storyteller: { id: storyteller.id, firstName: storyteller.first_name, hasPhoto: !!storyteller.profile_pic_key },
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
