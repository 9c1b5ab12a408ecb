// A question's bounds and "Your own questions" split into questions: zod-free, so the forms that
// name a refused line (app/components/question-errors.tsx) count lines as the schema does.

/** A question is 5 to 300 characters, however it is typed (a line of its own, an edit, a story's title). */
export const QUESTION_MIN = 5;
export const QUESTION_MAX = 300;
/** Your own questions added in one go. */
export const MAX_QUESTIONS_AT_ONCE = 100;

/** "Your own questions", one per line: each line trimmed, the empty ones left out. */
export const questionLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
