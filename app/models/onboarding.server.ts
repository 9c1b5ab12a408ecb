import type { Config } from "~/config.server";
import type { PromptsInput } from "~/utils/prompt-schema";
import type { ScheduleInput, StorytellerInput } from "~/utils/storyteller-schema";
import type { DbOrTx } from "../../db/client";
import { inTransaction } from "../../db/client";
import { libraryQueueItems } from "./prompt-library.server";
import { addPrompts } from "./prompt.server";
import { saveStoryteller, type SaveStorytellerResult } from "./storyteller.server";

/** The wizard's answers so far, one entry per finished step (the phone number as typed). */
export type OnboardingDraft = { who?: StorytellerInput; prompts?: PromptsInput; schedule?: ScheduleInput };

export async function getDraft(db: DbOrTx, userId: string): Promise<OnboardingDraft> {
  const row = await db.selectFrom("onboarding_drafts").select("data").where("user_id", "=", userId).executeTakeFirst();
  return (row?.data ?? {}) as OnboardingDraft;
}

/** Keeps one step's answers server-side, so the wizard works with plain form posts. */
export async function saveDraftStep<K extends keyof OnboardingDraft>(
  db: DbOrTx,
  userId: string,
  step: K,
  value: OnboardingDraft[K],
) {
  const draft = { ...(await getDraft(db, userId)), [step]: value };
  await db
    .insertInto("onboarding_drafts")
    .values({ user_id: userId, data: JSON.stringify(draft) })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ data: JSON.stringify(draft), updated_at: new Date() }))
    .execute();
}

/**
 * Creates the Storyteller (through saveStoryteller, as every new Storyteller is made), their
 * schedule and their queue in one transaction, and clears the draft: all of it or nothing.
 */
export async function createStorytellerFromDraft(
  services: { db: DbOrTx; config: Config },
  ownerId: string,
  draft: { who: StorytellerInput; prompts: PromptsInput; schedule: ScheduleInput },
): Promise<SaveStorytellerResult> {
  const { who, prompts, schedule } = draft;
  return inTransaction(services.db, async (tx) => {
    const saved = await saveStoryteller({ db: tx, config: services.config }, { ownerId }, { ...who, ...schedule });
    if (!saved.ok) return saved;
    const queue = [
      ...(await libraryQueueItems(tx, prompts.libraryPromptIds, who.language)),
      ...prompts.customPrompts.map((text) => ({ text, libraryPromptId: null })),
    ];
    // Repeats (any letter case) are left out of a new queue as they are from an existing one.
    if (queue.length) await addPrompts(tx, ownerId, saved.storytellerId, queue);
    await tx.deleteFrom("onboarding_drafts").where("user_id", "=", ownerId).execute();
    return saved;
  });
}
