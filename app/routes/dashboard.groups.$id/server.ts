import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { SessionUser } from "~/auth/session.server";
import type { AppContext } from "~/context.server";
import {
  deleteGroup,
  removeGroupMember,
  resendInvitation,
  revokeInvitation,
  updateGroupDetails,
} from "~/models/group.server";
import { log } from "~/services/logger.server";
import { redirectWithToast } from "~/services/toast.server";
import { groupPageSchema, Intent } from "./schema";

// The group page's action: one handler per intent. Anything the user may not do to this group is a
// 404, as a group they may not see is.

type Args = { request: Request; context: AppContext; user: SessionUser; groupId: string; formData: FormData };

const notFound = () => new Response(null, { status: 404 });

export async function groupPageAction({ request, context, user, groupId, formData }: Args) {
  const submission = parseWithZod(formData, { schema: groupPageSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const value = submission.value;
  const page = `/dashboard/groups/${groupId}`;
  const toast = (to: string, type: "success" | "error", key: string) =>
    redirectWithToast(request, context, to, { type, key: `groups:toast.${key}` });

  switch (value.intent) {
    case Intent.update: {
      let updated: boolean;
      try {
        updated = await updateGroupDetails(context.db, user.id, groupId, value);
      } catch (error) {
        log.error({ module: "groups", err: error }, "group update failed");
        return toast(page, "error", "updateFailed");
      }
      if (!updated) throw notFound();
      return toast(page, "success", "updated");
    }
    case Intent.remove:
      if (value.memberId === user.id || !(await removeGroupMember(context.db, user.id, groupId, value.memberId)))
        throw notFound();
      return toast(page, "success", "memberRemoved");
    case Intent.leave:
      if (!(await removeGroupMember(context.db, user.id, groupId, user.id))) throw notFound();
      return toast("/dashboard", "success", "left");
    case Intent.delete:
      if (!(await deleteGroup(context.db, user.id, groupId))) throw notFound();
      return toast("/dashboard", "success", "deleted");
    case Intent.resend:
      if (!(await resendInvitation(context, user, groupId, value.invitationId))) throw notFound();
      return toast(page, "success", "resent");
    case Intent.revoke:
      if (!(await revokeInvitation(context.db, user.id, groupId, value.invitationId))) throw notFound();
      return toast(page, "success", "revoked");
  }
}
