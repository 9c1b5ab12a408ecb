import { useTranslation } from "react-i18next";
import { Link, useRouteLoaderData } from "react-router";

/**
 * What an answer whose words wait for the speech engine or model says (transcript_status 'waiting')
 * to the family: that the words will come (they may write them meanwhile, beside this). Only whoever
 * runs the site can install what is missing, so only they get the way to "Check your setup".
 */
export function WordsComing() {
  const { t } = useTranslation();
  const siteAdmin = (useRouteLoaderData("routes/dashboard") as { siteAdmin?: boolean } | undefined)?.siteAdmin;
  return (
    <>
      {t("wordsComing.text")}{" "}
      {siteAdmin ? (
        <Link to="/dashboard/testpage" className="underline">
          {t("wordsComing.link")}
        </Link>
      ) : null}
    </>
  );
}
