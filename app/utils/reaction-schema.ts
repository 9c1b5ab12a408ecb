import { z } from "zod";
import { MAX_NOTE, ReactionIntent } from "./reaction-intents";
import { text } from "./validation";

/** What the reactions' forms post (decision 048); a note's errors go back on its field. */
export const reactionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal(ReactionIntent.heart), answerId: z.uuid() }),
  z.object({ intent: z.literal(ReactionIntent.unheart), answerId: z.uuid() }),
  z.object({ intent: z.literal(ReactionIntent.note), answerId: z.uuid(), note: text(1, MAX_NOTE) }),
]);
