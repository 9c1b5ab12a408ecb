import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import { capabilityPageHeaders, storytellerForRegisterToken } from "~/models/capability-links.server";
import { titleFromLoader } from "~/utils/meta";

export const handle = { i18n: ["responses"] };
export const meta = titleFromLoader;
export const headers = () => capabilityPageHeaders;

/**
 * Where "My Stories" leads a Storyteller without an account. Only a visitor holding the register
 * link the record page gave (`?t=`) learns anything about the Storyteller; anyone else, for any id,
 * gets the same generic page.
 */
export async function loader({ request, context, params }: LoaderArgs) {
  const t = await getServerT(request, context, "responses");
  const storyteller = await storytellerForRegisterToken(
    context,
    new URL(request.url).searchParams.get("t") ?? "",
    params.recipientId,
  );
  if (!storyteller) return { title: `${t("register.genericTitle")} · ${context.config.APP_NAME}`, storyteller: null };
  const registerUrl = `/auth/register?${new URLSearchParams({ firstName: storyteller.first_name, ...(storyteller.email ? { email: storyteller.email } : {}) })}`;
  return {
    title: `${t("register.title")} · ${context.config.APP_NAME}`,
    storyteller: { firstName: storyteller.first_name, registerUrl },
  };
}

export default function RegisterForStories() {
  const { t } = useTranslation("responses");
  const { storyteller } = useLoaderData<typeof loader>();
  return (
    <main id="main" className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-10 text-lg">
      <h1 className="text-3xl font-bold">{storyteller ? t("register.title") : t("register.genericTitle")}</h1>
      <p>{storyteller ? t("register.lead", { name: storyteller.firstName }) : t("register.generic")}</p>
      <Link to={storyteller?.registerUrl ?? "/auth/register"} className="btn-primary self-start px-6 py-3">
        {storyteller ? t("register.button") : t("register.genericButton")}
      </Link>
    </main>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
