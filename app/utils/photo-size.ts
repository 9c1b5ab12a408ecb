import { type ChangeEvent, useState } from "react";

/** The largest photo taken (an account's photo, a book's cover), checked by the browser and the server. */
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;

/**
 * A photo input's change handler that refuses a file over MAX_PHOTO_BYTES as soon as it is chosen:
 * the input is emptied and `message` (a translation key) shown, so a 20 MB photo is never sent.
 */
export function usePhotoSizeCheck(message: string) {
  const [tooLarge, setTooLarge] = useState(false);
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const large = (event.currentTarget.files?.[0]?.size ?? 0) > MAX_PHOTO_BYTES;
    if (large) event.currentTarget.value = "";
    setTooLarge(large);
  };
  return { errors: tooLarge ? [message] : undefined, onChange };
}
