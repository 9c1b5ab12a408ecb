import { z } from "zod";
import { unknownIntent } from "~/utils/validation";
import { Intent } from "./intents";

export const notificationsSchema = z.discriminatedUnion(
  "intent",
  [z.object({ intent: z.literal(Intent.markAllRead) })],
  unknownIntent,
);
