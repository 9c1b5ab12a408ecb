import { sql } from "kysely";
import type { Config } from "~/config.server";
import { getServerT } from "~/i18n/i18next.server";
import { queueEmail } from "~/services/outbox.server";
import { signCapability, verifyCapability } from "~/services/tokens.server";
import type { GroupDetailsInput, GroupDraft, GroupStorytellerChoice } from "~/utils/group-schema";
import { type DbOrTx, inTransaction } from "../../db/client";
import { preparedQuery } from "../../db/prepared";
import type { Language } from "../../db/schema";
import { memberGroupIds, ownedGroupIds, ownedStorytellerIds, visibleStorytellerIds } from "./access.server";
import { forgetStorytellerNotifications } from "./notification.server";
import { lastSentPromptQuery, nextPromptQuery, saveStoryteller } from "./storyteller.server";

type Services = { db: DbOrTx; config: Config };
/** Messages (translation keys) by field name, as conform's reply takes them. */
type FieldErrors = Record<string, string[]>;

export type GroupInviter = { id: string; email: string; first_name: string; last_name: string; language: Language };

/** A group invitation is good for 30 days from when it was (last) sent. */
export const INVITATION_DAYS = 30;

// ── Add Group's draft ──────────────────────────────────────────────────────────────────────────

export async function getGroupDraft(db: DbOrTx, userId: string): Promise<GroupDraft> {
  const row = await db.selectFrom("group_drafts").select("data").where("user_id", "=", userId).executeTakeFirst();
  return (row?.data ?? {}) as GroupDraft;
}

export async function saveGroupDraftStep<K extends keyof GroupDraft>(
  db: DbOrTx,
  userId: string,
  step: K,
  value: GroupDraft[K],
) {
  const draft = JSON.stringify({ ...(await getGroupDraft(db, userId)), [step]: value });
  await db
    .insertInto("group_drafts")
    .values({ user_id: userId, data: draft })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ data: draft, updated_at: new Date() }))
    .execute();
}

/**
 * The Storytellers a user may put a new group around: those they own and ask (never their is_self
 * row, which holds their own stories).
 */
export async function groupableStorytellers(db: DbOrTx, userId: string) {
  return db
    .selectFrom("storytellers")
    .select(["id", "nickname", "first_name"])
    .where("id", "in", ownedStorytellerIds(db, userId))
    .where("is_self", "=", false)
    .orderBy("nickname")
    .orderBy("id")
    .execute();
}

/**
 * What the schema cannot check about addresses to invite: the inviter's own address, and (for an
 * existing group) someone already in it. Errors keyed `emails[i]`, as the form names its inputs.
 */
export async function checkInvitationEmails(
  db: DbOrTx,
  inviter: { email: string },
  emails: string[],
  groupId?: string,
): Promise<FieldErrors> {
  const members = groupId
    ? new Set(
        (
          await db
            .selectFrom("group_members")
            .innerJoin("users", "users.id", "group_members.user_id")
            .select("users.email")
            .where("group_members.group_id", "=", groupId)
            .execute()
        ).map((m) => m.email.toLowerCase()),
      )
    : new Set<string>();
  const fieldErrors: FieldErrors = {};
  emails.forEach((address, index) => {
    const key = address.toLowerCase();
    if (key === inviter.email.toLowerCase()) fieldErrors[`emails[${index}]`] = ["groups:errors.ownEmail"];
    else if (members.has(key)) fieldErrors[`emails[${index}]`] = ["groups:errors.alreadyMember"];
  });
  return fieldErrors;
}

// ── Invitations ────────────────────────────────────────────────────────────────────────────────

/** The language an invitation is written in: that of a user with the address, else the inviter's. */
async function inviteeLanguage(db: DbOrTx, email: string, fallback: Language): Promise<Language> {
  const user = await db
    .selectFrom("users")
    .select("language")
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .executeTakeFirst();
  return user?.language ?? fallback;
}

/** Queues an invitation's email: its accept link is a "group-invite" capability naming the row. */
async function queueInvitationEmail(
  tx: DbOrTx,
  config: Config,
  invitation: { id: string; email: string },
  inviter: GroupInviter,
  groupName: string,
  now: Date,
) {
  const language = await inviteeLanguage(tx, invitation.email, inviter.language);
  const t = await getServerT(language, { config }, "groups");
  const inviterName = `${inviter.first_name} ${inviter.last_name}`.trim();
  const acceptUrl = `${config.APP_URL}/invitations/${await signCapability(config, "group-invite", invitation.id, now)}`;
  await queueEmail(tx, {
    to: invitation.email,
    subject: t("email.subject", { inviter: inviterName, group: groupName }),
    text: t("email.text", { inviter: inviterName, group: groupName, acceptUrl, days: INVITATION_DAYS }),
  });
}

const expiryFrom = (now: Date) => new Date(now.getTime() + INVITATION_DAYS * 86_400_000);

/**
 * Invites each address to a group: an open invitation row (30 days) and its email, in the caller's
 * transaction. An address with an open invitation to the group already gets that one sent again.
 */
export async function inviteToGroup(
  tx: DbOrTx,
  config: Config,
  inviter: GroupInviter,
  group: { id: string; name: string },
  emails: string[],
  now = new Date(),
) {
  for (const email of emails) {
    const open = await tx
      .updateTable("group_invitations")
      .set({ expires_at: expiryFrom(now), invited_by: inviter.id })
      .where("group_id", "=", group.id)
      .where(sql<string>`lower(email)`, "=", email.toLowerCase())
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .returning(["id", "email"])
      .executeTakeFirst();
    const invitation =
      open ??
      (await tx
        .insertInto("group_invitations")
        .values({ group_id: group.id, email, invited_by: inviter.id, expires_at: expiryFrom(now) })
        .returning(["id", "email"])
        .executeTakeFirstOrThrow());
    await queueInvitationEmail(tx, config, invitation, inviter, group.name, now);
  }
}

// ── Creating a group ───────────────────────────────────────────────────────────────────────────

export type CreateGroupResult =
  | { ok: true; groupId: string }
  /** The chosen Storyteller is not one the user owns and asks, or the new one's fields fail the server's checks. */
  | { ok: false; problem: "storyteller"; fieldErrors?: FieldErrors };

/**
 * Creates a group from Add Group's answers in one transaction: the new Storyteller (through
 * saveStoryteller, as every new Storyteller is made) if there is one, the group, its owner's
 * membership, each invitation and its email, and clears the draft. All of it, or nothing.
 */
export async function createGroupFromDraft(
  services: Services,
  owner: GroupInviter,
  draft: { details: GroupDetailsInput; storyteller: GroupStorytellerChoice; emails: string[] },
  now = new Date(),
): Promise<CreateGroupResult> {
  return inTransaction(services.db, async (tx) => {
    let storytellerId: string;
    if ("newStoryteller" in draft.storyteller) {
      const saved = await saveStoryteller(
        { db: tx, config: services.config },
        { ownerId: owner.id },
        draft.storyteller.newStoryteller,
        now,
      );
      if (!saved.ok)
        return { ok: false, problem: "storyteller", fieldErrors: "fieldErrors" in saved ? saved.fieldErrors : {} };
      storytellerId = saved.storytellerId;
    } else {
      const mine = await tx
        .selectFrom("storytellers")
        .select("id")
        .where("id", "=", draft.storyteller.storytellerId)
        .where("id", "in", ownedStorytellerIds(tx, owner.id))
        .where("is_self", "=", false)
        .executeTakeFirst();
      if (!mine) return { ok: false, problem: "storyteller" };
      storytellerId = mine.id;
    }
    const group = await tx
      .insertInto("groups")
      .values({
        owner_id: owner.id,
        storyteller_id: storytellerId,
        name: draft.details.name,
        description: draft.details.description,
      })
      .returning(["id", "name"])
      .executeTakeFirstOrThrow();
    await tx.insertInto("group_members").values({ group_id: group.id, user_id: owner.id, role: "owner" }).execute();
    await inviteToGroup(tx, services.config, owner, group, draft.emails, now);
    await tx.deleteFrom("group_drafts").where("user_id", "=", owner.id).execute();
    return { ok: true, groupId: group.id };
  });
}

// ── Answering an invitation ────────────────────────────────────────────────────────────────────

export type InvitationStatus = "open" | "accepted" | "revoked" | "expired";

const invitationStatus = (row: { accepted_at: Date | null; revoked_at: Date | null; expires_at: Date }, now: Date) =>
  row.accepted_at ? "accepted" : row.revoked_at ? "revoked" : row.expires_at <= now ? "expired" : "open";

/**
 * What an invitation link shows: the group, its Storyteller, who invited, the address invited,
 * whether it is still open, and whether the viewer (if signed in) is in the group now. Checked
 * against the row on every use: null for a tampered token or a deleted invitation or group.
 */
export async function invitationForToken(
  services: { db: DbOrTx; config: Config },
  token: string,
  viewerId: string | null,
  now = new Date(),
) {
  const invitationId = await verifyCapability(services.config, "group-invite", token);
  if (!invitationId) return null;
  const { db } = services;
  const row = await db
    .selectFrom("group_invitations as i")
    .innerJoin("groups as g", "g.id", "i.group_id")
    .innerJoin("storytellers as s", "s.id", "g.storyteller_id")
    .leftJoin("users as inviter", "inviter.id", "i.invited_by")
    .select([
      "i.id",
      "i.email",
      "i.expires_at",
      "i.accepted_at",
      "i.revoked_at",
      "g.id as group_id",
      "g.name as group_name",
      "g.description as group_description",
      "s.id as storyteller_id",
      "s.nickname as storyteller_nickname",
      sql<string | null>`trim(inviter.first_name || ' ' || inviter.last_name)`.as("inviter_name"),
      (eb) =>
        viewerId
          ? eb("g.id", "in", memberGroupIds(db, viewerId)).as("viewer_is_member")
          : sql<boolean>`false`.as("viewer_is_member"),
    ])
    .where("i.id", "=", invitationId)
    .executeTakeFirst();
  if (!row) return null;
  return { ...row, status: invitationStatus(row, now) as InvitationStatus };
}

export type AcceptInvitationResult =
  | { ok: true; groupId: string; groupName: string; storytellerId: string }
  | { ok: false; problem: "not-found" }
  | { ok: false; problem: "wrong-email"; email: string }
  | { ok: false; problem: "accepted" | "revoked" | "expired" };

/**
 * Accepts an invitation for a signed-in user whose address is the invited one: the invitation is
 * marked accepted and the user becomes a collaborator, in one transaction (a user already in the
 * group stays as they are).
 */
export async function acceptInvitation(
  services: { db: DbOrTx; config: Config },
  token: string,
  user: { id: string; email: string },
  now = new Date(),
): Promise<AcceptInvitationResult> {
  const invitationId = await verifyCapability(services.config, "group-invite", token);
  if (!invitationId) return { ok: false, problem: "not-found" };
  return inTransaction(services.db, async (tx) => {
    const row = await tx
      .selectFrom("group_invitations as i")
      .innerJoin("groups as g", "g.id", "i.group_id")
      .select([
        "i.id",
        "i.email",
        "i.expires_at",
        "i.accepted_at",
        "i.revoked_at",
        "g.id as group_id",
        "g.name",
        "g.storyteller_id",
      ])
      .where("i.id", "=", invitationId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return { ok: false, problem: "not-found" };
    const status = invitationStatus(row, now);
    if (status !== "open") return { ok: false, problem: status };
    if (row.email.toLowerCase() !== user.email.toLowerCase())
      return { ok: false, problem: "wrong-email", email: row.email };
    await tx.updateTable("group_invitations").set({ accepted_at: now }).where("id", "=", row.id).execute();
    await tx
      .insertInto("group_members")
      .values({ group_id: row.group_id, user_id: user.id, role: "collaborator", joined_at: now })
      .onConflict((oc) => oc.columns(["group_id", "user_id"]).doNothing())
      .execute();
    return { ok: true, groupId: row.group_id, groupName: row.name, storytellerId: row.storyteller_id };
  });
}

// ── A group's page ─────────────────────────────────────────────────────────────────────────────

/**
 * A group as its page shows it, to a member (null for anyone else): its owner sees its members and
 * its pending invitations (open or expired, neither accepted nor revoked); a collaborator sees its
 * members only.
 */
export async function getGroupPage(db: DbOrTx, userId: string, groupId: string, now = new Date()) {
  const group = await db
    .selectFrom("groups as g")
    .innerJoin("storytellers as s", "s.id", "g.storyteller_id")
    .select(["g.id", "g.name", "g.description", "g.owner_id", "s.id as storyteller_id", "s.nickname as storyteller"])
    .where("g.id", "=", groupId)
    .where("g.id", "in", memberGroupIds(db, userId))
    .executeTakeFirst();
  if (!group) return null;
  const role: "owner" | "collaborator" = group.owner_id === userId ? "owner" : "collaborator";
  const members = await db
    .selectFrom("group_members as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .select([
      "u.id",
      "u.first_name",
      "u.last_name",
      "u.email",
      "m.role",
      "m.joined_at",
      // Books they made of the Storyteller: removing them stops their downloads, not the printed links.
      sql<number>`(select count(*)::int from keepsakes k where k.user_id = u.id and k.kind = 'book' and k.storyteller_id = ${group.storyteller_id})`.as(
        "books",
      ),
    ])
    .where("m.group_id", "=", group.id)
    .orderBy(sql`m.role = 'owner'`, "desc")
    .orderBy("m.joined_at")
    .orderBy("u.id")
    .execute();
  const invitations =
    role === "owner"
      ? (
          await db
            .selectFrom("group_invitations")
            .select(["id", "email", "expires_at", "created_at"])
            .where("group_id", "=", group.id)
            .where("accepted_at", "is", null)
            .where("revoked_at", "is", null)
            .orderBy("created_at")
            .orderBy("id")
            .execute()
        ).map((i) => ({ ...i, expired: i.expires_at <= now }))
      : [];
  return { ...group, role, members, invitations };
}

/** Renames a group or changes its description: its owner only (false for anyone else). */
export async function updateGroupDetails(db: DbOrTx, userId: string, groupId: string, details: GroupDetailsInput) {
  const result = await db
    .updateTable("groups")
    .set({ name: details.name, description: details.description, updated_at: new Date() })
    .where("id", "=", groupId)
    .where("id", "in", ownedGroupIds(db, userId))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** After someone leaves a group: what it told them about a Storyteller they may no longer see goes too. */
async function forgetIfNoLongerVisible(tx: DbOrTx, userId: string, storytellerId: string) {
  const stillSees = await tx
    .selectFrom("storytellers")
    .select("id")
    .where("id", "=", storytellerId)
    .where("id", "in", visibleStorytellerIds(tx, userId))
    .executeTakeFirst();
  if (!stillSees) await forgetStorytellerNotifications(tx, userId, storytellerId);
}

/**
 * Takes a collaborator out of a group: by its owner (`memberId` another member) or by themself
 * (leaving). Their membership row goes, so access ends at once; the group's owner cannot be taken
 * out (they delete the group instead). False when there is nothing the user may do.
 */
export async function removeGroupMember(db: DbOrTx, userId: string, groupId: string, memberId: string) {
  return inTransaction(db, async (tx) => {
    const group = await tx
      .selectFrom("groups")
      .select(["id", "owner_id", "storyteller_id"])
      .where("id", "=", groupId)
      .where("id", "in", memberGroupIds(tx, userId))
      .forUpdate()
      .executeTakeFirst();
    if (!group || memberId === group.owner_id) return false;
    if (userId !== group.owner_id && userId !== memberId) return false;
    const removed = await tx
      .deleteFrom("group_members")
      .where("group_id", "=", group.id)
      .where("user_id", "=", memberId)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) !== 1) return false;
    await forgetIfNoLongerVisible(tx, memberId, group.storyteller_id);
    return true;
  });
}

/**
 * Deletes a group: its owner only. Its memberships and invitations go with it (foreign keys); the
 * Storyteller, their prompts and answers stay. Members who no longer see the Storyteller lose its
 * notifications.
 */
export async function deleteGroup(db: DbOrTx, userId: string, groupId: string) {
  return inTransaction(db, async (tx) => {
    const group = await tx
      .deleteFrom("groups")
      .where("id", "=", groupId)
      .where("id", "in", ownedGroupIds(tx, userId))
      .returning(["id", "storyteller_id"])
      .executeTakeFirst();
    if (!group) return false;
    // The rows cascaded away; who was in the group is asked of the notifications instead.
    const told = await tx
      .selectFrom("notifications")
      .select("user_id")
      .distinct()
      .where("storyteller_id", "=", group.storyteller_id)
      .execute();
    for (const { user_id } of told) await forgetIfNoLongerVisible(tx, user_id, group.storyteller_id);
    return true;
  });
}

/** An invitation of a group the user owns, not yet accepted or revoked, or null. */
async function openInvitationOfOwnedGroup(tx: DbOrTx, userId: string, groupId: string, invitationId: string) {
  return (
    (await tx
      .selectFrom("group_invitations as i")
      .innerJoin("groups as g", "g.id", "i.group_id")
      .select(["i.id", "i.email", "g.id as group_id", "g.name"])
      .where("i.id", "=", invitationId)
      .where("g.id", "=", groupId)
      .where("g.id", "in", ownedGroupIds(tx, userId))
      .where("i.accepted_at", "is", null)
      .where("i.revoked_at", "is", null)
      .forUpdate()
      .executeTakeFirst()) ?? null
  );
}

/** Sends an invitation again: the same row, its 30 days starting afresh, and a new email. Owner only. */
export async function resendInvitation(
  services: Services,
  owner: GroupInviter,
  groupId: string,
  invitationId: string,
  now = new Date(),
) {
  return inTransaction(services.db, async (tx) => {
    const invitation = await openInvitationOfOwnedGroup(tx, owner.id, groupId, invitationId);
    if (!invitation) return false;
    await tx
      .updateTable("group_invitations")
      .set({ expires_at: expiryFrom(now), invited_by: owner.id })
      .where("id", "=", invitation.id)
      .execute();
    await queueInvitationEmail(tx, services.config, invitation, owner, invitation.name, now);
    return true;
  });
}

/** Withdraws an invitation: its link says so from now on. Owner only. */
export async function revokeInvitation(
  db: DbOrTx,
  userId: string,
  groupId: string,
  invitationId: string,
  now = new Date(),
) {
  return inTransaction(db, async (tx) => {
    const invitation = await openInvitationOfOwnedGroup(tx, userId, groupId, invitationId);
    if (!invitation) return false;
    await tx.updateTable("group_invitations").set({ revoked_at: now }).where("id", "=", invitation.id).execute();
    return true;
  });
}

/** The groups a user owns, for "into one of my groups" choices. */
export async function ownedGroups(db: DbOrTx, userId: string) {
  return db
    .selectFrom("groups")
    .select(["id", "name"])
    .where("id", "in", ownedGroupIds(db, userId))
    .orderBy("name")
    .orderBy("id")
    .execute();
}

export type InviteToGroupResult =
  { ok: true } | { ok: false; problem: "not-found" } | { ok: false; problem: "invalid"; fieldErrors: FieldErrors };

/**
 * Invites one address into a group the inviter owns (Invite someone's "into one of my groups"),
 * through inviteToGroup as Add Group does. Refuses the inviter's own address or a member's.
 */
export async function inviteOneToGroup(services: Services, inviter: GroupInviter, groupId: string, email: string) {
  return inTransaction(services.db, async (tx): Promise<InviteToGroupResult> => {
    const group = await tx
      .selectFrom("groups")
      .select(["id", "name"])
      .where("id", "=", groupId)
      .where("id", "in", ownedGroupIds(tx, inviter.id))
      .executeTakeFirst();
    if (!group) return { ok: false, problem: "not-found" };
    const errors = await checkInvitationEmails(tx, inviter, [email], group.id);
    if (errors["emails[0]"]) return { ok: false, problem: "invalid", fieldErrors: { email: errors["emails[0]"] } };
    await inviteToGroup(tx, services.config, inviter, group, [email]);
    return { ok: true };
  });
}

// ── The overview's group cards ─────────────────────────────────────────────────────────────────

/**
 * The overview's group cards, in one query: every group the user belongs to, with its Storyteller,
 * the members' initials, and the Next/Last Sent Prompt by the subqueries listStorytellerCards uses.
 * `role` is the user's in the group.
 */
export async function listGroupCards(db: DbOrTx, userId: string) {
  return groupCardsQuery(db, { userId });
}

// The overview's every load: built and compiled once (decision 056).
const groupCardsQuery = preparedQuery(["userId"], (db, { userId }: { userId: string }) =>
  db
    .selectFrom("groups as g")
    .innerJoin("storytellers as s", "s.id", "g.storyteller_id")
    .innerJoin("group_members as me", (join) => join.onRef("me.group_id", "=", "g.id").on("me.user_id", "=", userId))
    .select((eb) => [
      "g.id",
      "g.name",
      "g.description",
      "me.role",
      "s.id as storyteller_id",
      "s.nickname as storyteller",
      eb
        .selectFrom("group_members as m")
        .innerJoin("users as u", "u.id", "m.user_id")
        .select(
          sql<
            string[]
          >`coalesce(array_agg(upper(left(u.first_name, 1) || left(u.last_name, 1)) order by m.role = 'owner' desc, m.joined_at, u.id), '{}')`.as(
            "initials",
          ),
        )
        .whereRef("m.group_id", "=", "g.id")
        .as("initials"),
      nextPromptQuery(db, eb.ref("s.id")).as("next_prompt"),
      lastSentPromptQuery(db, eb.ref("s.id")).as("last_sent_prompt"),
    ])
    .orderBy("g.created_at")
    .orderBy("g.id"),
);
