import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { FieldErrors } from "~/components/forms";
import { usePhotoSizeCheck } from "~/utils/photo-size";

/** The book's cover photo: a plain multipart form to the keep page (decision 047). */
export function CoverForm({
  storytellerId,
  hasCover,
  error,
}: {
  storytellerId: string;
  hasCover: boolean;
  error?: string;
}) {
  const { t } = useTranslation("keep");
  // Over 5 MB is said when the photo is chosen, not after a minute of sending it.
  const check = usePhotoSizeCheck("keep:cover.tooLarge");
  const errors = check.errors ?? (error ? [error] : []);
  return (
    <Form
      method="post"
      action={`/dashboard/recipient/${storytellerId}/keep`}
      encType="multipart/form-data"
      className="flex flex-col gap-2 rounded-lg border border-line p-4"
    >
      <label htmlFor="cover-photo" className="font-medium">
        {hasCover ? t("cover.replaceLabel") : t("cover.label")}
      </label>
      <p id="cover-photo-hint" className="text-sm text-muted">
        {t("cover.hint")}
      </p>
      <input
        id="cover-photo"
        name="photo"
        type="file"
        accept="image/jpeg,image/png,image/gif,image/webp,image/heic"
        required
        className="input"
        onChange={check.onChange}
        aria-describedby={errors.length ? "cover-photo-hint cover-photo-error" : "cover-photo-hint"}
        aria-invalid={errors.length ? true : undefined}
      />
      <FieldErrors id="cover-photo-error" errors={errors} />
      <button type="submit" className="btn-secondary self-start">
        {t("cover.submit")}
      </button>
    </Form>
  );
}
