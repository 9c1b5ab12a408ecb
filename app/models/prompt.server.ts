import { sql } from "kysely";
import type { DbOrTx } from "../../db/client";
import { inTransaction } from "../../db/client";
import { preparedQuery } from "../../db/prepared";
import {
  askedStorytellerIds,
  editablePromptIds,
  ownedStorytellerIds,
  sharedAnswer,
  type StorytellerRole,
} from "./access.server";
import { contactColumns, nameColumns, reachColumns } from "./storyteller-columns.server";
import { wordsColumnsOf } from "./transcript-edit.server";

/**
 * A prompt of this Storyteller the user may reword, move or delete (editablePromptIds: any of the
 * owner's Storytellers, or one they added to a group's), or undefined.
 */
async function findEditablePrompt(db: DbOrTx, userId: string, storytellerId: string, promptId: string) {
  return db
    .selectFrom("prompts")
    .select(["id", "storyteller_id", "queue_position", "sent_at", "text"])
    .where("id", "=", promptId)
    .where("storyteller_id", "=", storytellerId)
    .where("id", "in", editablePromptIds(db, userId))
    .executeTakeFirst();
}

// The Storyteller view's two queries, the same shape every load: built and compiled once (decision 056).
const viewStorytellerQuery = preparedQuery(
  ["userId", "storytellerId"],
  (db, { userId, storytellerId }: { userId: string; storytellerId: string }) =>
    db
      .selectFrom("storytellers as s")
      .leftJoin("schedules as sc", "sc.storyteller_id", "s.id")
      .select([
        "s.id",
        "s.owner_id",
        ...nameColumns,
        ...reachColumns,
        ...contactColumns,
        "sc.frequency",
        "sc.first_prompt_date",
        "sc.next_send_at",
        "sc.paused_at",
      ])
      .where("s.id", "=", storytellerId)
      // The user's own stories' row (is_self) has no Storyteller page: they are in My Stories.
      .where("s.id", "in", askedStorytellerIds(db, userId)),
);
const viewPromptsQuery = preparedQuery(["storytellerId"], (db, { storytellerId }: { storytellerId: string }) =>
  db
    .selectFrom("prompts as p")
    .leftJoin("answers as a", "a.prompt_id", "p.id")
    // The prompt's latest delivery, so the owner sees a send that failed and why.
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("deliveries")
          .select(["status", "error", "scheduled_for", "purpose"])
          .whereRef("deliveries.prompt_id", "=", "p.id")
          .orderBy("created_at", "desc")
          .limit(1)
          .as("d"),
      (join) => join.onTrue(),
    )
    // The answer's live share link, if any (the Sent tab shows it to copy, and Stop sharing).
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("share_links")
          .select("share_links.id")
          .whereRef("share_links.answer_id", "=", "a.id")
          .where("share_links.revoked_at", "is", null)
          .orderBy("share_links.created_at", "desc")
          .limit(1)
          .as("sl"),
      (join) => join.onTrue(),
    )
    .select([
      "p.id",
      "p.text",
      "p.queue_position",
      "p.sent_at",
      "p.skipped_at",
      "p.created_at",
      "p.rerecord_requested_at",
      "p.created_by",
      "a.id as answer_id",
      "a.is_private",
      "a.via_phone",
      // Its length, so the Sent tab says it before anyone presses play.
      "a.duration_ms",
      // A private answer's words stay with the Storyteller: not even its transcript leaves the database.
      sql<string | null>`case when ${sharedAnswer("a")} then a.transcript end`.as("transcript"),
      "a.transcript_status",
      ...wordsColumnsOf("a", { maskPrivate: true }),
      sql<string | null>`case when ${sharedAnswer("a")} then sl.id end`.as("share_link_id"),
      "d.status as delivery_status",
      "d.error as delivery_error",
      // When a send not yet made is due (quiet hours hold a text until 08:00 there).
      sql<Date | null>`case when d.status = 'pending' and d.purpose = 'prompt' then d.scheduled_for end`.as(
        "delivery_due",
      ),
    ])
    .where("p.storyteller_id", "=", storytellerId)
    .orderBy("p.queue_position"),
);

/**
 * Everything the Storyteller view shows, in a fixed number of queries whatever the queue's size;
 * null when the user may not see them. `role` is the user's (see storytellerRole), and each prompt
 * says whether this user may reword, move and delete it (`editable`, as editablePromptIds decides).
 */
export async function getStorytellerView(db: DbOrTx, userId: string, storytellerId: string) {
  const [storyteller] = await viewStorytellerQuery(db, { userId, storytellerId });
  if (!storyteller) return null;
  const prompts = await viewPromptsQuery(db, { storytellerId: storyteller.id });
  const role: StorytellerRole = storyteller.owner_id === userId ? "owner" : "collaborator";
  // Who added a prompt stays on the server: the page gets only whether this user may change it.
  const withRights = prompts.map(({ created_by, ...prompt }) => ({
    ...prompt,
    editable: role === "owner" || created_by === userId,
  }));
  // A question on its way (Send now held for quiet hours) is no longer queued: the Sent tab shows
  // it first, waiting, with when it will reach her.
  const queued = withRights.filter((p) => !p.sent_at && !p.delivery_due);
  const waiting = withRights.filter((p) => !p.sent_at && p.delivery_due);
  const sent = [
    ...waiting.sort((a, b) => a.delivery_due!.getTime() - b.delivery_due!.getTime()),
    ...withRights.filter((p) => p.sent_at).sort((a, b) => b.sent_at!.getTime() - a.sent_at!.getTime()),
  ];
  return { storyteller, role, queued, sent, nextPrompt: queued[0] ?? null, lastSent: sent[waiting.length] ?? null };
}

/**
 * Swaps a queued prompt with its neighbour above or below, whoever added the neighbour. False when
 * there is no such queued prompt the user may move: a collaborator moves only the prompts they
 * added, so the others keep their order among themselves (decision 018).
 */
export async function movePrompt(
  db: DbOrTx,
  userId: string,
  storytellerId: string,
  promptId: string,
  direction: "up" | "down",
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const prompt = await findEditablePrompt(tx, userId, storytellerId, promptId);
    if (!prompt || prompt.sent_at) return false;
    const neighbour = await tx
      .selectFrom("prompts")
      .select(["id", "queue_position"])
      .where("storyteller_id", "=", storytellerId)
      .where("sent_at", "is", null)
      .where("queue_position", direction === "up" ? "<" : ">", prompt.queue_position)
      .orderBy("queue_position", direction === "up" ? "desc" : "asc")
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
    if (!neighbour) return true;
    await tx
      .updateTable("prompts")
      .set({ queue_position: neighbour.queue_position, updated_at: new Date() })
      .where("id", "=", prompt.id)
      .execute();
    await tx
      .updateTable("prompts")
      .set({ queue_position: prompt.queue_position, updated_at: new Date() })
      .where("id", "=", neighbour.id)
      .execute();
    return true;
  });
}

/** Where placePrompt puts a prompt: before another queued prompt, first ("top") or last (null). */
export type QueuePlace = string | "top" | null;

/**
 * Places a queued prompt before `beforeId`, first ("top": Move to top) or last (null): what drag and
 * drop sends. False as movePrompt; the others keep their order.
 */
export async function placePrompt(
  db: DbOrTx,
  userId: string,
  storytellerId: string,
  promptId: string,
  beforeId: QueuePlace,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const prompt = await findEditablePrompt(tx, userId, storytellerId, promptId);
    if (!prompt || prompt.sent_at) return false;
    const queue = await tx
      .selectFrom("prompts")
      .select("id")
      .where("storyteller_id", "=", storytellerId)
      .where("sent_at", "is", null)
      .orderBy("queue_position")
      .forUpdate()
      .execute();
    const order = queue.map((p) => p.id).filter((id) => id !== promptId);
    const index = beforeId === "top" ? 0 : beforeId ? order.indexOf(beforeId) : -1;
    order.splice(index >= 0 ? index : order.length, 0, promptId);
    for (const [position, id] of order.entries()) {
      await tx
        .updateTable("prompts")
        .set({ queue_position: position + 1 })
        .where("id", "=", id)
        .execute();
    }
    return true;
  });
}

export type EditResult = "edited" | "duplicate" | "not-found";

/** Rewords a queued prompt the user may edit, unless another queued one already says the same (any letter case). */
export async function editPrompt(
  db: DbOrTx,
  userId: string,
  storytellerId: string,
  promptId: string,
  text: string,
): Promise<EditResult> {
  const prompt = await findEditablePrompt(db, userId, storytellerId, promptId);
  if (!prompt || prompt.sent_at) return "not-found";
  const duplicate = await db
    .selectFrom("prompts")
    .select("id")
    .where("storyteller_id", "=", storytellerId)
    .where("sent_at", "is", null)
    .where("id", "<>", promptId)
    .where(sql<string>`lower(text)`, "=", text.toLowerCase())
    .executeTakeFirst();
  if (duplicate) return "duplicate";
  await db.updateTable("prompts").set({ text, updated_at: new Date() }).where("id", "=", promptId).execute();
  return "edited";
}

/**
 * Deletes a queued prompt the user may edit; false when there is no such queued prompt for the
 * user. A sent one is not deleted here: its answer has its own Delete (owner only).
 */
export async function deletePrompt(
  db: DbOrTx,
  userId: string,
  storytellerId: string,
  promptId: string,
): Promise<boolean> {
  const prompt = await findEditablePrompt(db, userId, storytellerId, promptId);
  if (!prompt || prompt.sent_at) return false;
  await db.deleteFrom("prompts").where("id", "=", prompt.id).execute();
  return true;
}

export type AddResult = { added: number; duplicates: string[] };

/**
 * Appends prompts to the end of the queue. Texts already queued (any letter case), and library
 * questions already queued however reworded, are left out and
 * reported; the rest go in together or not at all. Null when the Storyteller has no page for the
 * user (askedStorytellerIds).
 */
export async function addPrompts(
  db: DbOrTx,
  userId: string,
  storytellerId: string,
  items: { text: string; libraryPromptId: number | null }[],
): Promise<AddResult | null> {
  return inTransaction(db, async (tx) => {
    const storyteller = await tx
      .selectFrom("storytellers")
      .select("id")
      .where("id", "=", storytellerId)
      // Never the user's own stories' row: nobody queues questions for it (decision 017).
      .where("id", "in", askedStorytellerIds(tx, userId))
      .forUpdate()
      .executeTakeFirst();
    if (!storyteller) return null;
    const queued = await tx
      .selectFrom("prompts")
      .select([sql<string>`lower(text)`.as("text"), "library_prompt_id"])
      .where("storyteller_id", "=", storytellerId)
      .where("sent_at", "is", null)
      .execute();
    const taken = new Set(queued.map((p) => p.text));
    // A library question stays queued once, even after its wording was edited in the queue.
    const takenLibrary = new Set(queued.map((p) => p.library_prompt_id));
    const duplicates: string[] = [];
    const fresh = items.filter((item) => {
      const key = item.text.toLowerCase();
      if (taken.has(key) || (item.libraryPromptId !== null && takenLibrary.has(item.libraryPromptId))) {
        duplicates.push(item.text);
        return false;
      }
      taken.add(key);
      takenLibrary.add(item.libraryPromptId);
      return true;
    });
    if (fresh.length) {
      const { last } = await tx
        .selectFrom("prompts")
        .select(sql<number>`coalesce(max(queue_position), 0)`.as("last"))
        .where("storyteller_id", "=", storytellerId)
        .executeTakeFirstOrThrow();
      await tx
        .insertInto("prompts")
        .values(
          fresh.map((item, index) => ({
            storyteller_id: storytellerId,
            created_by: userId,
            text: item.text,
            library_prompt_id: item.libraryPromptId,
            is_custom: item.libraryPromptId === null,
            queue_position: Number(last) + index + 1,
          })),
        )
        .execute();
    }
    return { added: fresh.length, duplicates };
  });
}

/** For Send now (the owner's alone, whoever added the prompt): the prompt, if it is still queued, else null. */
export async function queuedPromptForSending(db: DbOrTx, userId: string, storytellerId: string, promptId: string) {
  const prompt = await db
    .selectFrom("prompts")
    .select(["id", "storyteller_id", "queue_position", "sent_at", "text"])
    .where("id", "=", promptId)
    .where("storyteller_id", "=", storytellerId)
    .where("sent_at", "is", null)
    .where("storyteller_id", "in", ownedStorytellerIds(db, userId))
    .executeTakeFirst();
  return prompt ?? null;
}
