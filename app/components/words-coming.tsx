import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/**
 * What an answer whose words wait for the speech engine or model says (transcript_status 'waiting'),
 * with the way to "Check your setup" for the family, who can act on it; a share link's listener
 * cannot, and gets the sentence alone.
 */
export function WordsComing({ setupLink }: { setupLink: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      {t("wordsComing.text")}{" "}
      {setupLink ? (
        <Link to="/dashboard/testpage" className="underline">
          {t("wordsComing.link")}
        </Link>
      ) : null}
    </>
  );
}
