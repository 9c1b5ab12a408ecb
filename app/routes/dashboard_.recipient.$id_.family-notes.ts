import { requireUser } from "~/auth/session.server";
import type { ActionArgs } from "~/context.server";
import { setReactionDigest } from "~/models/reaction.server";
import { redirectWithToast } from "~/services/toast.server";
import { idParam } from "~/utils/ids";
import { readForm } from "~/utils/request-body.server";

/**
 * The owner's switch for the Storyteller's evening message about the family's hearts and notes
 * (decision 048), posted from the edit page. Only the owner; anyone else gets a 404.
 */
export async function action({ request, context, params }: ActionArgs) {
  const user = await requireUser(request, context);
  const storytellerId = idParam(params.id);
  const choice = (await readForm(request)).get("familyNotes");
  if (choice !== "on" && choice !== "off") throw new Response("Bad Request", { status: 400 });
  const saved = await setReactionDigest(context.db, user.id, storytellerId, choice === "on");
  if (!saved) throw new Response(null, { status: 404 });
  return redirectWithToast(request, context, `/dashboard/recipient/${storytellerId}/edit`, {
    type: "success",
    key: saved.on ? "storytellers:familyNotes.turnedOn" : "storytellers:familyNotes.turnedOff",
  });
}
