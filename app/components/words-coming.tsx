import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** An answer whose words wait for the speech engine or model (transcript_status 'waiting'). */
export function WordsComing({ setupLink = true }: { setupLink?: boolean }) {
  const { t } = useTranslation();
  return (
    <p className="text-sm text-muted" data-testid="transcript">
      {t("wordsComing.text")}{" "}
      {setupLink ? (
        <Link to="/dashboard/testpage" className="underline">
          {t("wordsComing.link")}
        </Link>
      ) : null}
    </p>
  );
}
