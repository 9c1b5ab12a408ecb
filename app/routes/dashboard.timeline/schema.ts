import { z } from "zod";
import { Param } from "./intents";

export { Param };

/**
 * What the GET form and the links send. Anything malformed is left out, never refused: a stale or
 * hand-edited address shows the first page (or all Storytellers), not an error.
 */
export const searchSchema = z.object({
  [Param.storyteller]: z.uuid().optional().catch(undefined),
  [Param.before]: z.string().max(100).optional().catch(undefined),
});
