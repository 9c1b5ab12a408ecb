import { parseWithZod } from "@conform-to/zod/v4";
import { requireUser } from "~/auth/session.server";
import type { ActionArgs } from "~/context.server";
import { exportStream, planExport } from "~/models/keepsake-archive.server";
import { requestExport } from "~/models/keepsake.server";
import { redirectWithToast } from "~/services/toast.server";
import { exportSchema } from "~/utils/keep-schema";
import { readForm } from "~/utils/request-body.server";

/**
 * Export (decision 023), a plain form post: up to EXPORT_STREAM_MAX_MB the zip streams back at
 * once, with its exact Content-Length; above that a job builds it and the user goes back to the
 * page, which shows its progress. A Storyteller the user may not see is a 404.
 */
export async function action({ request, context }: ActionArgs) {
  const user = await requireUser(request, context);
  const submission = parseWithZod(await readForm(request), { schema: exportSchema });
  if (submission.status !== "success") throw new Response("Bad Request", { status: 400 });
  const input = submission.value;
  const scope =
    input.scope === "storyteller"
      ? ({ kind: "storyteller", storytellerId: input.storytellerId } as const)
      : ({ kind: "everything" } as const);
  const plan = await planExport(context, user, scope);
  if (!plan) throw new Response(null, { status: 404 });
  const back = scope.kind === "storyteller" ? `/dashboard/recipient/${scope.storytellerId}/keep` : "/dashboard/keep";
  if (plan.length > context.config.EXPORT_STREAM_MAX_MB * 1024 * 1024) {
    await requestExport(context.db, user.id, scope);
    return redirectWithToast(request, context, back, { type: "success", key: "keep:toast.exportQueued" });
  }
  return new Response(exportStream(context.storage, plan), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Length": String(plan.length),
      "Content-Disposition": `attachment; filename="heirloom-export.zip"; filename*=UTF-8''${encodeURIComponent(plan.filename)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
