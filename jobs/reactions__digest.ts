import { sendReactionDigest } from "~/models/reaction.server";
import type { JobTask } from "~/services/jobs.server";
import type { JobDeps } from "./task-list";

/** The Storyteller's evening message about her family's hearts and notes (decision 048). */
export const reactionsDigest =
  (deps: Pick<JobDeps, "db" | "config">): JobTask<"reactions__digest"> =>
  async ({ storytellerId }) => {
    await sendReactionDigest(deps.db, deps.config, storytellerId);
  };
