import type { getZodConstraint } from "@conform-to/zod/v4";

/** A form's field constraints (required, pattern, multiple), made on the server from its schema. */
export type FormConstraint = ReturnType<typeof getZodConstraint>;
