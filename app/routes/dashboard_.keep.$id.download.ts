import { requireUser } from "~/auth/session.server";
import type { LoaderArgs } from "~/context.server";
import { downloadableKeepsake } from "~/models/keepsake.server";
import { serveStoredFile } from "~/services/serve-file.server";

/**
 * A finished export or book, for the user who asked for it, for 7 days (the emailed link). Byte
 * ranges are honoured, so a broken download resumes. Anyone else, or after 7 days: 404.
 */
export async function loader({ request, context, params }: LoaderArgs) {
  const user = await requireUser(request, context);
  const keepsake = await downloadableKeepsake(context.db, user.id, params.id ?? "");
  if (!keepsake?.storage_key) throw new Response(null, { status: 404 });
  const day = keepsake.created_at.toISOString().slice(0, 10);
  const stem = keepsake.first_name ? `${keepsake.first_name} – ${context.config.APP_NAME}` : context.config.APP_NAME;
  const book = keepsake.kind === "book";
  return serveStoredFile(request, context.storage, keepsake.storage_key, {
    contentType: book ? "application/pdf" : "application/zip",
    disposition: "attachment",
    filename: `${stem} ${day}.${book ? "pdf" : "zip"}`,
  });
}
