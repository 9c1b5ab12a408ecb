import { describe, expect, it } from "vitest";
import { sendDelivery } from "~/models/delivery.server";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { useTestDatabase } from "../../../tests/db";
import { createDelivery, createPrompt, createStoryteller, createUser } from "../../../tests/factories";
import { EMAIL_REPLY_ACTION } from "./intents";
import { action, loader } from "./route";

const database = useTestDatabase();
const context = () => makeTestContext(database);

/** A question emailed to her through the outbox, and the outbox's "Reply to this email" under it. */
async function questionInOutbox() {
  const owner = await createUser(database.db, { first_name: "Priya" });
  const storyteller = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
  const prompt = await createPrompt(database.db, { storytellerId: storyteller.id, text: "Where did you grow up?" });
  const delivery = await createDelivery(database.db, { promptId: prompt.id });
  expect(await sendDelivery(context(), delivery.id, { sendNow: true })).toBe("sent");
  const page = await loader({
    request: new Request("http://localhost:3000/dev/outbox"),
    context: context(),
    params: {},
    ...routeArgs,
  });
  const message = page.messages.find((m) => m.subject?.includes("Priya") && m.reply)!;
  return { promptId: prompt.id, email: message.to_address, reply: message.reply! };
}

/** The form as a browser posts it without JavaScript: the fields, then the file. */
function replyPost(asked: Awaited<ReturnType<typeof questionInOutbox>>, text: string, file?: File) {
  const form = new FormData();
  form.set("replyTo", asked.reply.to);
  form.set("from", asked.email);
  form.set("messageId", asked.reply.messageId);
  form.set("text", text);
  form.set("attachment", file ?? new File([], ""));
  return action({
    request: new Request(`http://localhost:3000${EMAIL_REPLY_ACTION}`, { method: "POST", body: form }),
    context: context(),
    params: {},
    ...routeArgs,
  });
}

const answersOf = (promptId: string) =>
  database.db.selectFrom("answers").selectAll().where("prompt_id", "=", promptId).execute();
const toldHer = (email: string) =>
  database.db
    .selectFrom("outbox_messages")
    .select("subject")
    .where("to_address", "=", email)
    .where("subject", "not like", "%has a question for you")
    .orderBy("created_at")
    .execute();

describe("/dev/outbox: Reply to this email", () => {
  it("makes her two paragraphs the answer, once however often the form is sent", async () => {
    const asked = await questionInOutbox();
    const words = "We lived above the bakery.\n\nEvery morning smelled of bread.";
    const response = (await replyPost(
      asked,
      `${words}\n\nOn Sunday, Heirloom wrote:\n> Where did you grow up?`,
    )) as Response;
    expect(response.status).toBe(302);
    await replyPost(asked, words);
    const answers = await answersOf(asked.promptId);
    expect(answers).toHaveLength(1);
    expect(answers[0].transcript).toBe(words);
    expect((await toldHer(asked.email)).map((m) => m.subject)).toEqual(["Thank you — Priya will read it soon"]);
  });

  it("refuses a 40 MB file and tells her so", async () => {
    const asked = await questionInOutbox();
    const big = new File([new Uint8Array(40 * 1024 * 1024)], "memo.m4a", { type: "audio/mp4" });
    await replyPost(asked, "", big);
    expect(await answersOf(asked.promptId)).toEqual([]);
    expect((await toldHer(asked.email)).map((m) => m.subject)).toEqual(["Your recording is too large"]);
  });
});
