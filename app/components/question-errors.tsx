import { useTranslation } from "react-i18next";
import { MAX_QUESTIONS_AT_ONCE, QUESTION_MAX, QUESTION_MIN, questionLines } from "~/utils/question-lines";

export type ErrorMap = Record<string, string[] | null | undefined> | undefined;

/**
 * A refused question in words that say by how much ("Too long — 312 of 300 characters"), and, for
 * a line of "Your own questions", which one ("Question 2 is too long — …"). Other refusals read
 * as their own key says.
 */
export function useQuestionMessage() {
  const { t } = useTranslation();
  return (error: string, typed: string, number?: number) => {
    const length = typed.trim().length;
    const values = { number: number ?? 0, length, min: QUESTION_MIN, max: QUESTION_MAX };
    if (error === "validation.tooLong")
      return t(number ? "validation.questionLineTooLong" : "validation.questionTooLong", values);
    if (error === "validation.tooShort")
      return t(number ? "validation.questionLineTooShort" : "validation.questionTooShort", values);
    return number ? t("validation.questionLine", { number, message: t(error) }) : t(error);
  };
}

/**
 * The errors of a box of questions one per line, said: each line's by its number (`name[1]` is the
 * second question), the box's own (too many at once) first. Shown by FieldErrors with `said`.
 */
export function useQuestionLineMessages(errors: ErrorMap, name: string, typed: string) {
  const { t } = useTranslation();
  const say = useQuestionMessage();
  const lines = questionLines(typed);
  const messages = Object.entries(errors ?? {})
    .flatMap(([key, keyErrors]) => {
      if (key === name)
        return (keyErrors ?? []).map((error) => ({
          at: -1,
          text:
            error === "validation.tooLong"
              ? t("validation.tooManyQuestions", { max: MAX_QUESTIONS_AT_ONCE })
              : t(error),
        }));
      const index = new RegExp(`^${name}\\[(\\d+)\\]$`).exec(key)?.[1];
      if (index === undefined) return [];
      const at = Number(index);
      return (keyErrors ?? []).map((error) => ({ at, text: say(error, lines[at] ?? "", at + 1) }));
    })
    .sort((a, b) => a.at - b.at)
    .map((message) => message.text);
  return messages.length ? messages : undefined;
}

/** For FieldErrors' `say` when the messages are already said. */
export const said = (message: string) => message;
