import { z } from "zod";

/** The Timeline's address bar: the filter's field and the "Older answers" link's cursor. */
export const Param = { storyteller: "storyteller", before: "before" } as const;

/**
 * What the GET form and the links send. Anything malformed is left out, never refused: a stale or
 * hand-edited address shows the first page (or all Storytellers), not an error.
 */
export const searchSchema = z.object({
  [Param.storyteller]: z.uuid().optional().catch(undefined),
  [Param.before]: z.string().max(100).optional().catch(undefined),
});
