import { data, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getServerT } from "~/i18n/i18next.server";
import { capabilityPageHeaders, promptForRecordToken } from "~/models/capability-links.server";
import { titleFromLoader } from "~/utils/meta";

export const handle = { i18n: ["delivery"] };
export const meta = titleFromLoader;
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * Where a prompt's "Record your answer" link lands. The recorder comes with the recording issue;
 * for now the page proves the link: the prompt and who asked, or "Question not found".
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const t = await getServerT(request, context, "delivery");
  const title = (key: string) => `${t(key)} · ${context.config.APP_NAME}`;
  if (params.token === "sample") {
    return data({ kind: "sample" as const, title: title("record.sampleTitle"), prompt: t("testPrompt"), askerName: null, photoUrl: null }, { headers: capabilityPageHeaders });
  }
  const prompt = await promptForRecordToken(context, params.token!);
  if (!prompt) return data({ kind: "not-found" as const, title: title("record.notFoundTitle") }, { status: 404, headers: capabilityPageHeaders });
  return data(
    {
      kind: "prompt" as const,
      title: title("record.title"),
      prompt: prompt.text,
      askerName: prompt.asker_name,
      photoUrl: prompt.asker_photo ? `/record/${params.token}/photo` : null,
    },
    { headers: capabilityPageHeaders },
  );
}

export default function RecordPage() {
  const { t } = useTranslation("delivery");
  const page = useLoaderData<typeof loader>();
  return (
    <main id="main" className="mx-auto flex max-w-xl flex-col gap-5 px-4 py-8 text-lg">
      {page.kind === "not-found" ? (
        <>
          <h1 className="text-3xl font-bold">{t("record.notFoundTitle")}</h1>
          <p>{t("record.notFound")}</p>
        </>
      ) : (
        <>
          <h1 className="text-2xl font-bold">{t(page.kind === "sample" ? "record.sampleTitle" : "record.title")}</h1>
          {page.askerName ? (
            <p className="flex items-center gap-3">
              {page.photoUrl ? <img src={page.photoUrl} alt="" width={56} height={56} className="size-14 rounded-full object-cover" /> : null}
              <span>{t("record.from", { asker: page.askerName })}</span>
            </p>
          ) : null}
          <blockquote className="rounded-xl border border-line bg-panel p-5 text-2xl leading-snug font-semibold">{page.prompt}</blockquote>
          <p>{t(page.kind === "sample" ? "record.sample" : "record.comingSoon")}</p>
        </>
      )}
    </main>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
