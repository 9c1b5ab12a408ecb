/**
 * A provider refused the message for a reason retrying will not fix (a 4xx other than 408/429:
 * a bad address, an opted-out number). The job marks it failed at once and shows the reason.
 */
export class PermanentSendError extends Error {
  override name = "PermanentSendError";
}

export const isPermanentStatus = (status: unknown): boolean =>
  typeof status === "number" && status >= 400 && status < 500 && status !== 408 && status !== 429;

/** A short, log-safe reason: the provider's own words, never the message body. */
export const sendErrorReason = (error: unknown): string => String((error as Error)?.message ?? error).slice(0, 500);
