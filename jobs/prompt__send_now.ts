import type { Task } from "graphile-worker";
import { z } from "zod";
import type { JobDeps } from "./task-list";

const payloadSchema = z.object({ promptId: z.uuid() });

/**
 * "Send now": records the request in the delivery ledger (pending, one row per prompt and channel).
 * The delivery issue's sender picks pending rows up; until then the prompt stays queued.
 */
export const promptSendNow =
  ({ db }: Pick<JobDeps, "db">): Task =>
  async (payload) => {
    const { promptId } = payloadSchema.parse(payload);
    const prompt = await db
      .selectFrom("prompts")
      .innerJoin("storytellers", "storytellers.id", "prompts.storyteller_id")
      .select(["prompts.id", "prompts.sent_at", "storytellers.delivery_method"])
      .where("prompts.id", "=", promptId)
      .executeTakeFirst();
    if (!prompt || prompt.sent_at) return; // deleted or already sent meanwhile
    await db
      .insertInto("deliveries")
      .values({ prompt_id: prompt.id, channel: prompt.delivery_method })
      .onConflict((oc) => oc.columns(["prompt_id", "channel", "purpose"]).doNothing())
      .execute();
  };
