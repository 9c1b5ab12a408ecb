import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../../tests/db";
import {
  addGroupMembers,
  createAnswer,
  createAnswersInBulk,
  createGroup,
  createSelfStoryteller,
  createStoryteller,
  createUser,
} from "../../tests/factories";
import { answerForListener } from "./share.server";
import {
  formatTimelineCursor,
  getTimelinePage,
  groupByMonth,
  listTimelineStorytellers,
  parseTimelineCursor,
  TIMELINE_PAGE_SIZE,
  type TimelineFilter,
} from "./timeline.server";

const database = useTestDatabase();
const db = () => database.db;

type Viewer = { id: string; email: string };

/** Every page of the Timeline, following the "Older answers" cursor to the end. */
async function allPages(viewer: Viewer, filter: Omit<TimelineFilter, "before"> = {}) {
  const pages: string[][] = [];
  let before = null;
  for (;;) {
    const page = await getTimelinePage(db(), viewer, { ...filter, before });
    pages.push(page.items.map((item) => item.id));
    if (!page.nextCursor) return pages;
    before = parseTimelineCursor(page.nextCursor);
    expect(before).not.toBeNull();
    if (pages.length > 100) throw new Error("the cursor does not advance");
  }
}

const idsOf = async (viewer: Viewer, filter: TimelineFilter = {}) =>
  (await getTimelinePage(db(), viewer, filter)).items.map((item) => item.id);

describe("the Timeline's order and months", () => {
  it("lists answers newest first, with the data to group them by month", async () => {
    const owner = await createUser(db());
    const nani = await createStoryteller(db(), { ownerId: owner.id, nickname: "Nani" });
    const dada = await createStoryteller(db(), { ownerId: owner.id, nickname: "Dada" });
    // Six answers a week apart going back from 10 March 2026, alternating between the two.
    const made = await createAnswersInBulk(db(), {
      storytellerIds: [nani.id, dada.id],
      count: 6,
      newest: new Date("2026-03-10T12:00:00Z"),
      spacingMs: 7 * 86_400_000,
    });
    const page = await getTimelinePage(db(), owner);
    expect(page.items.map((item) => item.id)).toEqual(made.map((a) => a.id));
    expect(page.items.map((item) => item.answeredAt)).toEqual([
      "2026-03-10T12:00:00.000Z",
      "2026-03-03T12:00:00.000Z",
      "2026-02-24T12:00:00.000Z",
      "2026-02-17T12:00:00.000Z",
      "2026-02-10T12:00:00.000Z",
      "2026-02-03T12:00:00.000Z",
    ]);
    expect(page.items.map((item) => item.storytellerName)).toEqual(["Nani", "Dada", "Nani", "Dada", "Nani", "Dada"]);
    expect(page.items[0]).toMatchObject({
      month: "2026-03",
      voice: "family",
      isPrivate: false,
      transcriptStatus: "done",
      question: expect.stringMatching(/^Bulk question/),
      askerName: owner.first_name,
    });
    expect(page.nextCursor).toBeNull();
    expect(groupByMonth(page.items).map((g) => [g.month, g.items.length])).toEqual([
      ["2026-03", 2],
      ["2026-02", 4],
    ]);
  });

  it("groups by the UTC month, so a month boundary falls where the dates say", () => {
    expect(
      groupByMonth([{ month: "2026-02" }, { month: "2026-02" }, { month: "2026-01" }, { month: "2025-12" }]).map(
        (g) => [g.month, g.items.length],
      ),
    ).toEqual([
      ["2026-02", 2],
      ["2026-01", 1],
      ["2025-12", 1],
    ]);
    expect(groupByMonth([])).toEqual([]);
  });
});

describe("paging by cursor", () => {
  it("walks every answer exactly once, 20 at a time, when many share one instant (the id breaks ties)", async () => {
    const owner = await createUser(db());
    const nani = await createStoryteller(db(), { ownerId: owner.id });
    const dada = await createStoryteller(db(), { ownerId: owner.id });
    const instant = new Date("2026-05-05T05:05:05Z");
    const tied = await createAnswersInBulk(db(), {
      storytellerIds: [nani.id, dada.id],
      count: 45,
      newest: instant,
      spacingMs: 0,
    });
    const older = await createAnswersInBulk(db(), {
      storytellerIds: [nani.id],
      count: 3,
      newest: new Date("2026-05-01T00:00:00Z"),
    });
    const pages = await allPages(owner);
    expect(pages.map((p) => p.length)).toEqual([TIMELINE_PAGE_SIZE, TIMELINE_PAGE_SIZE, 8]);
    expect(pages.flat()).toEqual([...tied, ...older].map((a) => a.id));
  });

  it("keeps the database's microseconds in the cursor, so answers made within one millisecond are not skipped", async () => {
    const owner = await createUser(db());
    const nani = await createStoryteller(db(), { ownerId: owner.id });
    // 25 answers 3 microseconds apart: all within one millisecond, which a JavaScript Date cannot tell apart.
    const made = await createAnswersInBulk(db(), {
      storytellerIds: [nani.id],
      count: 25,
      newest: new Date("2026-06-01T08:00:00.500Z"),
      spacingMs: 0.003,
    });
    const pages = await allPages(owner);
    expect(pages.map((p) => p.length)).toEqual([20, 5]);
    expect(pages.flat()).toEqual(made.map((a) => a.id));
    const first = await getTimelinePage(db(), owner);
    expect(first.nextCursor).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z_[0-9a-f-]{36}$/);
  });

  it("reads only cursors it gave out: anything else is no cursor (the first page), never a query error", () => {
    const id = "0b6c3e2e-8f5a-4c1e-9f0e-2d7a1b3c4d5e";
    expect(parseTimelineCursor(`2026-03-01T10:20:30.123456Z_${id}`)).toEqual({
      time: "2026-03-01T10:20:30.123456Z",
      id,
    });
    const bad = [
      null,
      "",
      "garbage",
      `2026-02-30T10:20:30.123456Z_${id}`,
      `2026-03-01T25:20:30.123456Z_${id}`,
      `2026-13-01T10:20:30.123456Z_${id}`,
      `2026-03-01T10:20:30.123Z_${id}`,
      "2026-03-01T10:20:30.123456Z_not-a-uuid-but-36-characters-long!!",
      `2026-03-01T10:20:30.123456Z_${id}x`,
      `'; drop table answers; --_${id}`,
    ];
    for (const value of bad) expect([value, parseTimelineCursor(value)]).toEqual([value, null]);
    expect(formatTimelineCursor({ time: "2026-03-01T10:20:30.123456Z", id })).toBe(`2026-03-01T10:20:30.123456Z_${id}`);
  });
});

describe("the filter by Storyteller", () => {
  it("shows one Storyteller's answers, paged the same way", async () => {
    const owner = await createUser(db());
    const nani = await createStoryteller(db(), { ownerId: owner.id, nickname: "Nani" });
    const dada = await createStoryteller(db(), { ownerId: owner.id, nickname: "Dada" });
    const made = await createAnswersInBulk(db(), { storytellerIds: [nani.id, dada.id], count: 50 });
    const pages = await allPages(owner, { storytellerId: dada.id });
    expect(pages.map((p) => p.length)).toEqual([20, 5]);
    expect(pages.flat()).toEqual(made.filter((a) => a.storyteller_id === dada.id).map((a) => a.id));
    expect((await listTimelineStorytellers(db(), owner)).map((s) => [s.name, s.kind])).toEqual([
      ["Dada", "family"],
      ["Nani", "family"],
    ]);
  });

  it("given someone else's Storyteller, shows nothing (no error, no leak), and does not offer them", async () => {
    const owner = await createUser(db());
    const stranger = await createUser(db());
    const nani = await createStoryteller(db(), { ownerId: owner.id });
    await createAnswersInBulk(db(), { storytellerIds: [nani.id], count: 3 });
    expect(await getTimelinePage(db(), stranger, { storytellerId: nani.id })).toEqual({ items: [], nextCursor: null });
    expect(await getTimelinePage(db(), stranger)).toEqual({ items: [], nextCursor: null });
    expect(await listTimelineStorytellers(db(), stranger)).toEqual([]);
    // A malformed filter is no filter (the route never passes one, but the model does not trust it).
    expect(await idsOf(owner, { storytellerId: "not-a-uuid" })).toHaveLength(3);
  });
});

describe("who sees what", () => {
  async function family() {
    const owner = await createUser(db(), { first_name: "Asha" });
    const collaborator = await createUser(db(), { first_name: "Ravi" });
    const removed = await createUser(db(), { first_name: "Meena" });
    const stranger = await createUser(db());
    const nani = await createUser(db(), { first_name: "Kamla" });
    const storyteller = await createStoryteller(db(), { ownerId: owner.id, nickname: "Nani", email: nani.email });
    const group = await createGroup(db(), {
      ownerId: owner.id,
      storytellerId: storyteller.id,
      collaborators: [collaborator.id],
    });
    await addGroupMembers(db(), group.id, [{ userId: removed.id }]);
    const open = await createAnswer(db(), { storytellerId: storyteller.id, recordedForEmail: nani.email });
    const secret = await createAnswer(db(), {
      storytellerId: storyteller.id,
      recordedForEmail: nani.email,
      isPrivate: true,
      transcript: "Only for me.",
      transcriptStatus: "done",
    });
    // The member is removed from the group: from then on they see nothing of it.
    await db().deleteFrom("group_members").where("group_id", "=", group.id).where("user_id", "=", removed.id).execute();
    return { owner, collaborator, removed, stranger, nani, storyteller, open, secret };
  }

  it("gives the owner and a collaborator the family's answers, never a private one", async () => {
    const f = await family();
    expect(await idsOf(f.owner)).toEqual([f.open.id]);
    expect(await idsOf(f.collaborator)).toEqual([f.open.id]);
    expect(await idsOf(f.collaborator, { storytellerId: f.storyteller.id })).toEqual([f.open.id]);
    expect((await listTimelineStorytellers(db(), f.collaborator)).map((s) => [s.id, s.kind])).toEqual([
      [f.storyteller.id, "family"],
    ]);
  });

  it("gives the Storyteller, signed in with the address their links went to, their answers, private ones too", async () => {
    const f = await family();
    const page = await getTimelinePage(db(), { id: f.nani.id, email: f.nani.email.toUpperCase() });
    expect(page.items.map((item) => [item.id, item.isPrivate, item.voice, item.askerName])).toEqual([
      [f.secret.id, true, "answeredFor", "Asha"],
      [f.open.id, false, "answeredFor", "Asha"],
    ]);
    expect(page.items[0].transcript).toBe("Only for me.");
    expect((await listTimelineStorytellers(db(), f.nani)).map((s) => [s.id, s.kind, s.askerName])).toEqual([
      [f.storyteller.id, "answeredFor", "Asha"],
    ]);
    expect(await idsOf(f.nani, { storytellerId: f.storyteller.id })).toEqual([f.secret.id, f.open.id]);
  });

  it("gives a removed member and a stranger nothing, whatever they filter by", async () => {
    const f = await family();
    for (const user of [f.removed, f.stranger]) {
      expect(await idsOf(user)).toEqual([]);
      expect(await idsOf(user, { storytellerId: f.storyteller.id })).toEqual([]);
      expect(await listTimelineStorytellers(db(), user)).toEqual([]);
    }
  });

  it("includes the stories the user recorded themself (their is_self Storyteller), first among the filter's choices", async () => {
    const user = await createUser(db());
    const me = await createSelfStoryteller(db(), user);
    const zeta = await createStoryteller(db(), { ownerId: user.id, nickname: "Aaji" });
    const mine = await createAnswer(db(), { storytellerId: me.id, recordedForEmail: user.email, isPrivate: true });
    const theirs = await createAnswer(db(), { storytellerId: zeta.id });
    const page = await getTimelinePage(db(), user);
    expect(page.items.map((item) => [item.id, item.voice])).toEqual([
      [theirs.id, "family"],
      [mine.id, "self"],
    ]);
    expect((await listTimelineStorytellers(db(), user)).map((s) => [s.id, s.kind])).toEqual([
      [me.id, "self"],
      [zeta.id, "family"],
    ]);
  });

  it("offers exactly the answers the media route plays, for every role", async () => {
    const f = await family();
    const others = await createAnswersInBulk(db(), {
      storytellerIds: [f.storyteller.id],
      count: 6,
      privateEvery: 2,
      recordedForEmail: f.nani.email,
      newest: new Date(Date.now() - 86_400_000),
    });
    const all = [f.open.id, f.secret.id, ...others.map((a) => a.id)];
    for (const user of [f.owner, f.collaborator, f.removed, f.stranger, f.nani]) {
      const shown = new Set((await allPages(user)).flat());
      for (const answerId of all) {
        const playable = (await answerForListener(db(), user.id, answerId)) !== null;
        expect([user.first_name, answerId, shown.has(answerId)]).toEqual([user.first_name, answerId, playable]);
      }
    }
  });
});
