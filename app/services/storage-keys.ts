import { randomUUID } from "node:crypto";

/**
 * Every object name in storage, chosen by the server (never from an uploaded file's name). A new
 * recording or photo gets a new name, so a replaced one is never served from a cache.
 */
export const storageKeys = {
  answerOriginal: (promptId: string, extension: string) => `answers/${promptId}/${randomUUID()}.${extension}`,
  answerPlayable: (answerId: string) => `answers/${answerId}/playable.m4a`,
  /** A built export (zip) or book (PDF); removed when its 7 days are over (decision 023). */
  keepsakeFile: (keepsakeId: string, extension: "zip" | "pdf") =>
    `keepsakes/${keepsakeId}/${randomUUID()}.${extension}`,
  /** A keepsake book's cover photo, uploaded on the keep page (decision 047). */
  bookCover: (storytellerId: string, extension: string) => `book-covers/${storytellerId}/${randomUUID()}.${extension}`,
  /** The phone simulator's stand-in for a recording Twilio holds (by its RE… id). */
  phoneSimulatorRecording: (recordingSid: string) => `phone-simulator/${recordingSid.toLowerCase()}.wav`,
  /** The WhatsApp simulator's stand-in for a voice note's media Twilio holds (by its ME… id). */
  whatsappSimulatorMedia: (mediaSid: string) => `whatsapp-simulator/${mediaSid.toLowerCase()}`,
  profilePhoto: (userId: string, extension: string) => `profile/${userId}/${randomUUID()}.${extension}`,
};
