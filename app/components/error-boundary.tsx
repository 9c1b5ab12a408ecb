import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";

/** Every route's error boundary: a friendly page for 404, 503 and everything else (never a stack trace). */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  // Not logged here: on the server, handleError in entry.server.tsx logged the original error with
  // its stack (this one is sanitized in production); in the browser there is no log to write to.
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status === 404) return <ErrorPage code={404} titleKey="errors.notFound.title" bodyKey="errors.notFound.body" />;
  if (status === 503)
    return <ErrorPage code={503} titleKey="errors.maintenance.title" bodyKey="errors.maintenance.body" />;
  if (status === 403) return <ErrorPage code={403} titleKey="errors.forbidden.title" bodyKey="errors.forbidden.body" />;
  if (status === 400)
    return <ErrorPage code={400} titleKey="errors.badRequest.title" bodyKey="errors.badRequest.body" />;
  return <ErrorPage code={500} titleKey="errors.serverError.title" bodyKey="errors.serverError.body" />;
}

export function ErrorPage({ code, titleKey, bodyKey }: { code: number; titleKey: string; bodyKey: string }) {
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center max-[720px]:py-10">
      <p className="text-6xl font-bold text-primary-text max-[720px]:text-5xl" aria-hidden="true">
        {code}
      </p>
      <h1 className="text-2xl font-semibold">{t(titleKey)}</h1>
      <p className="text-muted">{t(bodyKey)}</p>
      {code !== 503 ? (
        <Link to="/" className="btn-primary">
          {t("errors.goHome")}
        </Link>
      ) : null}
    </section>
  );
}
