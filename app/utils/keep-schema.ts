import { z } from "zod";

/** The export form (Storyteller page and "everything" page): a plain post to /dashboard/keep/export (ExportCard in app/components/keepsakes.tsx). */
export const exportSchema = z.union([
  z.object({ scope: z.literal("storyteller"), storytellerId: z.uuid() }),
  z.object({ scope: z.literal("everything") }),
]);

/** A keepsake (export or book) as pages list it. */
export type KeepsakeView = {
  id: string;
  kind: "export" | "book";
  /** A book's print-ready files (a zip of interior and cover) rather than its home PDF. */
  print: boolean;
  storytellerId: string | null;
  status: "queued" | "building" | "ready" | "failed";
  progress: number;
  byteSize: number | null;
  error: string | null;
  createdAt: string;
  expiresAt: string | null;
  /** Ready and not yet expired. */
  downloadable: boolean;
};

/** What an export holds, told before it is downloaded. */
export type ExportSummary = {
  answers: number;
  withTranscript: number;
  private: number;
  storytellers: number;
  photos: number;
  estimatedBytes: number;
};
