import { requireUser } from "~/auth/session.server";
import type { LoaderArgs } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import { downloadableKeepsake } from "~/models/keepsake.server";
import { serveStoredFile } from "~/services/serve-file.server";
import { familyName, keepsakeFilename, storiesTitle } from "~/utils/keepsake-name";

/**
 * A finished export or book, for the user who asked for it, for 7 days (the emailed link). Byte
 * ranges are honoured, so a broken download resumes. Anyone else, or after 7 days: 404.
 */
export async function loader({ request, context, params }: LoaderArgs) {
  const user = await requireUser(request, context);
  const keepsake = await downloadableKeepsake(context.db, user.id, params.id ?? "");
  if (!keepsake?.storage_key) throw new Response(null, { status: 404 });
  const book = keepsake.kind === "book";
  // A book's print-ready files are a zip of its interior and cover.
  const pdf = book && !(keepsake.options as { print?: unknown } | null)?.print;
  // Named as the book's title or the export's ("The-stories-of-Dadi-2026-11-28.pdf"), as the keep
  // page and the zip's own folder say it.
  const t = await getServerT(user.language, context, "keep");
  const chosen = book ? (keepsake.options as { title?: unknown } | null)?.title : null;
  const title =
    typeof chosen === "string"
      ? chosen
      : keepsake.first_name !== null && keepsake.nickname !== null
        ? storiesTitle(t, familyName({ nickname: keepsake.nickname, first_name: keepsake.first_name }))
        : t("archive.titleEverything");
  return serveStoredFile(request, context.storage, keepsake.storage_key, {
    contentType: pdf ? "application/pdf" : "application/zip",
    disposition: "attachment",
    filename: keepsakeFilename(title, keepsake.created_at, pdf ? "pdf" : "zip"),
  });
}
