import type { SubmissionResult } from "@conform-to/react";
import type { ComponentProps, ReactNode, Ref } from "react";
import { useTranslation } from "react-i18next";
import { SUBMISSION_FIELD } from "~/utils/submission-field";

type Errors = string[] | undefined;

/**
 * Every message in a conform reply, once each: for a form that lists its errors in one place. Those
 * of the field `except` (and its items, `except[n]`) are left to be shown beside that field.
 */
export function replyErrors(result: SubmissionResult<string[]> | undefined, except?: string): Errors {
  const mine = (name: string) => except !== undefined && (name === except || name.startsWith(`${except}[`));
  const errors = new Set(
    Object.entries(result?.error ?? {}).flatMap(([name, messages]) => (mine(name) ? [] : (messages ?? []))),
  );
  return errors.size ? [...errors] : undefined;
}

/** A creating form's one-time id, so a repeated post of it (a double click) creates nothing more. */
export function SubmissionField({ id }: { id: string }) {
  return <input type="hidden" name={SUBMISSION_FIELD} value={id} />;
}

/** How a field says an error key, when plain `t` says too little (a question's length: question-errors.tsx). */
type Say = (error: string) => string;

/** Field errors are translation keys; shown under the field and tied to it for screen readers. */
export function FieldErrors({ id, errors, say }: { id: string; errors: Errors; say?: Say }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <ul id={id} className="mt-1 text-sm text-danger">
      {errors.map((error) => (
        <li key={error}>{say ? say(error) : t(error)}</li>
      ))}
    </ul>
  );
}

// conform's prop getters include `key`; React wants it passed directly, not spread.
export function Field({
  label,
  hint,
  hintAfter = false,
  inputProps: { key, ...inputProps },
  errors,
  say,
}: {
  label: string;
  hint?: string;
  /** The hint under the input, so fields side by side line up whether or not they have one. */
  hintAfter?: boolean;
  inputProps: ComponentProps<"input"> & { id: string; key?: string };
  errors: Errors;
  say?: Say;
}) {
  const errorId = `${inputProps.id}-error`;
  const hintId = `${inputProps.id}-hint`;
  const describedBy = [hint ? hintId : null, errors?.length ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={inputProps.id} className="font-medium">
        {label}
      </label>
      {hint && !hintAfter ? (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <input
        key={key}
        {...inputProps}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy}
        className="input"
      />
      {hint && hintAfter ? (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={errorId} errors={errors} say={say} />
    </div>
  );
}

export function TextareaField({
  label,
  textareaProps: { key, ...textareaProps },
  errors,
  say,
}: {
  label: string;
  textareaProps: ComponentProps<"textarea"> & { id: string; key?: string };
  errors: Errors;
  say?: Say;
}) {
  const errorId = `${textareaProps.id}-error`;
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={textareaProps.id} className="font-medium">
        {label}
      </label>
      <textarea
        key={key}
        {...textareaProps}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? errorId : undefined}
        className="input min-h-40"
      />
      <FieldErrors id={errorId} errors={errors} say={say} />
    </div>
  );
}

/** A message about the whole form (e.g. a failed sign-in), announced to screen readers. */
export function FormAlert({ message }: { message: string | null | undefined }) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <p role="alert" className="mb-6 rounded-lg border border-danger p-3 text-danger">
      {t(message)}
    </p>
  );
}

export function SelectField({
  label,
  selectProps: { key, ...selectProps },
  errors,
  children,
  selectRef,
}: {
  label: string;
  selectProps: ComponentProps<"select"> & { id: string; key?: string };
  errors?: Errors;
  children: ReactNode;
  selectRef?: Ref<HTMLSelectElement>;
}) {
  const errorId = `${selectProps.id}-error`;
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={selectProps.id} className="font-medium">
        {label}
      </label>
      <select
        key={key}
        {...selectProps}
        ref={selectRef}
        aria-describedby={errors?.length ? errorId : undefined}
        className="input"
      >
        {children}
      </select>
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

/** English and Hindi, each named in its own language. */
export function LanguageOptions() {
  return (
    <>
      <option value="en">English</option>
      <option value="hi" lang="hi">
        हिन्दी
      </option>
    </>
  );
}
