import type { ColumnType } from "kysely";

// Types the generated db/database.generated.ts imports for what the database cannot say itself: the
// shape of a jsonb column's value (listed in JSONB_SHAPES, db/types-codegen.ts).

/** A jsonb column holding T: read as T, written as T or its JSON text. */
export type Jsonb<T> = ColumnType<T, T | string, T | string>;
/** The same with a column default: an insert may leave it out. */
export type DefaultedJsonb<T> = ColumnType<T, T | string | undefined, T | string>;

/** A stretch of an answer's words and when it is spoken, in seconds from the start. */
export type TranscriptSegment = { start: number; end: number; text: string };
