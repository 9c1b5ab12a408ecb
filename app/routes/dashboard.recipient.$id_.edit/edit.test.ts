import { describe, expect, it } from "vitest";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { outcome, post, replyErrorsOf, signedInUser } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import { createGroup, createStoryteller } from "../../../tests/factories";
import { action } from "./route";

// First prompt dates are at most a year ahead (firstPromptDateProblem).
const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

const database = useTestDatabase();

type User = Awaited<ReturnType<typeof signedInUser>>;
const submit = (user: User, id: string, fields: Record<string, string>) =>
  outcome(() =>
    action({
      request: post(user.jar, `/dashboard/recipient/${id}/edit`, fields),
      context: makeTestContext(database),
      params: { id },
      ...routeArgs,
    }),
  );
const rowOf = (id: string) =>
  database.db.selectFrom("storytellers").selectAll().where("id", "=", id).executeTakeFirst();

const form = {
  intent: "update",
  nickname: "Nanaji",
  firstName: "Ramesh",
  deliveryMethod: "email",
  email: "nana@example.com",
  timeZone: "Asia/Kolkata",
  language: "en",
  firstPromptDate: inAMonth,
  frequency: "bimonthly",
};

describe("editing a Storyteller", () => {
  it("saves the shared form's fields and schedule", async () => {
    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, { ownerId: owner.id });
    expect(await submit(owner, st.id, form)).toMatchObject({ status: 302, location: `/dashboard/recipient/${st.id}` });
    expect(await rowOf(st.id)).toMatchObject({
      nickname: "Nanaji",
      email: "nana@example.com",
      time_zone: "Asia/Kolkata",
    });
    expect(
      await database.db
        .selectFrom("schedules")
        .select("frequency")
        .where("storyteller_id", "=", st.id)
        .executeTakeFirst(),
    ).toEqual({ frequency: "bimonthly" });
  });

  it("refuses what the server checks beside the field, back to the Save form, and changes nothing", async () => {
    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, { ownerId: owner.id });
    const before = await rowOf(st.id);
    const refused = await submit(owner, st.id, { ...form, deliveryMethod: "sms", phone: "+44 7400 123456" });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ form: "update" });
    expect(replyErrorsOf(refused.data)).toEqual({
      phone: ["storytellers:errors.smsOnlyUsCaMobile", "storytellers:errors.numberCan.whatsapp"],
    });
    expect(await rowOf(st.id)).toEqual(before);
  });

  it("deletes only with the box ticked: unticked, the Delete form says so", async () => {
    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, { ownerId: owner.id });
    const unticked = await submit(owner, st.id, { intent: "delete" });
    expect(unticked.status).toBe(400);
    expect(unticked.data).toMatchObject({ form: "delete" });
    expect(replyErrorsOf(unticked.data)).toEqual({ confirm: ["storytellers:edit.confirmRequired"] });
    expect(await rowOf(st.id)).toBeDefined();
    expect(await submit(owner, st.id, { intent: "delete", confirm: "on" })).toMatchObject({
      status: 302,
      location: "/dashboard",
    });
    expect(await rowOf(st.id)).toBeUndefined();
  });

  it("answers an unknown intent with a 400 and changes nothing", async () => {
    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, { ownerId: owner.id });
    const before = await rowOf(st.id);
    for (const intent of ["archive", ""])
      expect((await submit(owner, st.id, { ...form, intent, confirm: "on" })).status).toBe(400);
    expect(await rowOf(st.id)).toEqual(before);
  });

  it("is a 404 for a collaborator in the Storyteller's group: only the owner edits or deletes", async () => {
    const owner = await signedInUser(database);
    const collaborator = await signedInUser(database);
    const st = await createStoryteller(database.db, { ownerId: owner.id });
    await createGroup(database.db, { ownerId: owner.id, storytellerId: st.id, collaborators: [collaborator.id] });
    const before = await rowOf(st.id);
    expect((await submit(collaborator, st.id, form)).status).toBe(404);
    expect((await submit(collaborator, st.id, { intent: "delete", confirm: "on" })).status).toBe(404);
    expect(await rowOf(st.id)).toEqual(before);
  });
});
