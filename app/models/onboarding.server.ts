import { DateTime, IANAZone } from "luxon";
import type { DbOrTx } from "../../db/client";
import type { Language } from "../../db/schema";
import { inTransaction } from "../../db/client";
import type { OnboardingDraft, PromptsStep, ScheduleStep, WhoStep } from "./onboarding";
import { emailOptedOut } from "./capability-links.server";
import { firstSendAt } from "./schedule";
import { storytellerColumns } from "./storyteller.server";

export async function getDraft(db: DbOrTx, userId: string): Promise<OnboardingDraft> {
  const row = await db.selectFrom("onboarding_drafts").select("data").where("user_id", "=", userId).executeTakeFirst();
  return (row?.data ?? {}) as OnboardingDraft;
}

/** Keeps one step's answers server-side, so the wizard works with plain form posts. */
export async function saveDraftStep<K extends keyof OnboardingDraft>(db: DbOrTx, userId: string, step: K, value: OnboardingDraft[K]) {
  const draft = { ...(await getDraft(db, userId)), [step]: value };
  await db
    .insertInto("onboarding_drafts")
    .values({ user_id: userId, data: JSON.stringify(draft) })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ data: JSON.stringify(draft), updated_at: new Date() }))
    .execute();
}

export const isTimeZone = (zone: string) => IANAZone.isValidZone(zone);

/** Today's date where the Storyteller lives: the first prompt date may not be earlier. */
export const todayIn = (timeZone: string) => DateTime.now().setZone(timeZone).toISODate()!;

/**
 * Creates the Storyteller, their schedule and their queue in one transaction, and clears the draft:
 * all of it or nothing.
 */
export async function createStorytellerFromDraft(
  db: DbOrTx,
  ownerId: string,
  draft: { who: WhoStep & { phoneE164: string | null }; prompts: PromptsStep; schedule: ScheduleStep },
): Promise<string> {
  const { who, prompts, schedule } = draft;
  const language: Language = who.language;
  return inTransaction(db, async (tx) => {
    const storyteller = await tx
      .insertInto("storytellers")
      .values({ owner_id: ownerId, ...storytellerColumns(who), unsubscribed_at: (await emailOptedOut(tx, who.email)) ? new Date() : null })
      .returning("id")
      .executeTakeFirstOrThrow();
    await tx
      .insertInto("schedules")
      .values({ storyteller_id: storyteller.id, first_prompt_date: schedule.firstPromptDate, frequency: schedule.frequency, next_send_at: firstSendAt({ ...schedule, timeZone: who.timeZone }) })
      .execute();

    const library = prompts.libraryPromptIds.length
      ? await tx.selectFrom("library_prompts").select(["id", "text_en", "text_hi"]).where("id", "in", prompts.libraryPromptIds).orderBy("category_id").orderBy("position").execute()
      : [];
    const queue = [
      ...library.map((p) => ({ text: language === "hi" ? p.text_hi : p.text_en, library_prompt_id: p.id, is_custom: false })),
      ...prompts.customPrompts.map((text) => ({ text, library_prompt_id: null, is_custom: true })),
    ];
    const seen = new Set<string>();
    const unique = queue.filter((p) => !seen.has(p.text.toLowerCase()) && seen.add(p.text.toLowerCase()));
    if (unique.length) {
      await tx
        .insertInto("prompts")
        .values(unique.map((p, index) => ({ ...p, storyteller_id: storyteller.id, created_by: ownerId, queue_position: index + 1 })))
        .execute();
    }
    await tx.deleteFrom("onboarding_drafts").where("user_id", "=", ownerId).execute();
    return storyteller.id;
  });
}
