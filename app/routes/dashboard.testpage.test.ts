import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTestContext, routeArgs } from "../../tests/context";
import { CookieJar } from "../../tests/cookie-jar";
import { get, outcome, post, replyErrorsOf, signedInUser } from "../../tests/dashboard-routes";
import { useTestDatabase } from "../../tests/db";
import { signIn } from "../../tests/factories";
import { action, loader } from "./dashboard.testpage";

const database = useTestDatabase();

const emailOf = async (userId: string) =>
  (await database.db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirstOrThrow()).email;

/** What the page says about speech to someone who runs the site (one of ADMIN_EMAILS), or to `as`. */
async function speechOn(env: Record<string, string>, as?: Awaited<ReturnType<typeof signedInUser>>) {
  const user = as ?? (await signedInUser(database));
  const admin: Record<string, string> = as
    ? {}
    : { ADMIN_EMAILS: `someone@example.com, ${(await emailOf(user.id)).toUpperCase()}` };
  const context = makeTestContext(database, { ...admin, ...env });
  const result = await loader({ request: get(user.jar, "/dashboard/testpage"), context, params: {}, ...routeArgs });
  return result.speech;
}

describe("Check your setup: answers in words", () => {
  it("names what is missing and the one command that installs it, without paths", async () => {
    const models = await mkdtemp(path.join(os.tmpdir(), "heirloom-testpage-models-"));
    const engine = path.join(models, "whisper-cli");
    await writeFile(engine, "stand-in");
    expect(await speechOn({ SPEECH_ENGINE: path.join(models, "missing-cli"), SPEECH_MODEL_DIR: models })).toEqual({
      state: "noEngine",
      command: "npm run speech:install",
    });
    expect(
      await speechOn({
        SPEECH_ENGINE: engine,
        SPEECH_MODEL_DIR: models,
        SPEECH_MODEL: "base-q5_1",
        SPEECH_MODEL_DOWNLOAD: "on",
      }),
    ).toEqual({
      state: "noModel",
      model: "base-q5_1",
      size: 57,
      command: "npm run speech:model",
    });
    expect(
      await speechOn({ SPEECH_ENGINE: engine, SPEECH_MODEL_DIR: models, SPEECH_MODEL_DOWNLOAD: "off" }),
    ).toMatchObject({ state: "noModelOffline", command: "npm run speech:model" });
    await writeFile(path.join(models, "ggml-small-q5_1.bin"), "stand-in");
    expect(await speechOn({ SPEECH_ENGINE: engine, SPEECH_MODEL_DIR: models })).toEqual({
      state: "ready",
      model: "small-q5_1",
    });
    expect(await speechOn({ TRANSCRIBE_URL: "https://stt.example/v1", TRANSCRIBE_API_KEY: "k" })).toEqual({
      state: "cloud",
    });
  });

  it("tells the rest of the family what they can do, never a command; the first account runs the site", async () => {
    const models = await mkdtemp(path.join(os.tmpdir(), "heirloom-testpage-models-"));
    const missing = { SPEECH_ENGINE: path.join(models, "missing-cli"), SPEECH_MODEL_DIR: models };
    await signedInUser(database);
    const grandson = await signedInUser(database);
    // The first account made is whoever runs the site, unless ADMIN_EMAILS names others.
    const { id: firstId } = await database.db
      .selectFrom("users")
      .select("id")
      .orderBy("created_at")
      .orderBy("id")
      .limit(1)
      .executeTakeFirstOrThrow();
    const jar = new CookieJar();
    jar.store(
      new Response(null, { headers: { "Set-Cookie": (await signIn(makeTestContext(database), firstId)).setCookie } }),
    );
    const runner = { id: firstId, jar };
    expect(await speechOn(missing, grandson)).toEqual({ state: "notYet" });
    expect(await speechOn(missing, runner)).toMatchObject({ command: "npm run speech:install" });
    expect(await speechOn({ ...missing, ADMIN_EMAILS: await emailOf(grandson.id) }, grandson)).toMatchObject({
      command: "npm run speech:install",
    });
    expect(await speechOn({ ...missing, ADMIN_EMAILS: "someone@example.com" }, runner)).toEqual({ state: "notYet" });
  });
});

describe("Check your setup: a test by WhatsApp", () => {
  const testsTo = (to: string) =>
    database.db
      .selectFrom("outbox_messages")
      .select(["channel", "to_address", "text_body"])
      .where("to_address", "=", to)
      .execute();

  it("sends the sample question by WhatsApp to a number in any country, through the outbox", async () => {
    const user = await signedInUser(database, { first_name: "Aman", language: "hi" });
    const context = makeTestContext(database);
    const page = await loader({ request: get(user.jar, "/dashboard/testpage"), context, params: {}, ...routeArgs });
    expect(page.whatsapp).toBe(true);
    const sent = await outcome(() =>
      action({
        request: post(user.jar, "/dashboard/testpage", { channel: "whatsapp", phone: "+91 98765 43210" }),
        context,
        params: {},
        ...routeArgs,
      }),
    );
    expect(sent).toMatchObject({ status: 302, location: "/dashboard/testpage" });
    const [message, ...more] = await testsTo("+919876543210");
    expect(more).toEqual([]);
    expect(message.channel).toBe("whatsapp");
    // His language's sample question and the sample page, as a Storyteller's WhatsApp message says it.
    expect(message.text_body).toContain("/record/sample?lng=hi");
  });

  it("refuses a WhatsApp test without a number it can read, and where this site has no WhatsApp", async () => {
    const user = await signedInUser(database);
    const context = makeTestContext(database);
    const noNumber = await outcome(() =>
      action({
        request: post(user.jar, "/dashboard/testpage", { channel: "whatsapp", phone: "12" }),
        context,
        params: {},
        ...routeArgs,
      }),
    );
    expect(noNumber.status).toBe(400);
    expect(replyErrorsOf(noNumber.data)).toEqual({ phone: ["testPage.whatsappPhoneRequired"] });
    // Twilio set up without a WhatsApp sender: no such choice on the page, and a post of it refused.
    const noWhatsApp = makeTestContext(database, {
      TWILIO_ACCOUNT_SID: "AC" + "0".repeat(32),
      TWILIO_AUTH_TOKEN: "t".repeat(32),
      TWILIO_FROM_NUMBER: "+15555550100",
    });
    const page = await loader({
      request: get(user.jar, "/dashboard/testpage"),
      context: noWhatsApp,
      params: {},
      ...routeArgs,
    });
    expect(page.whatsapp).toBe(false);
    const refused = await outcome(() =>
      action({
        request: post(user.jar, "/dashboard/testpage", { channel: "whatsapp", phone: "+44 7700 900123" }),
        context: noWhatsApp,
        params: {},
        ...routeArgs,
      }),
    );
    expect(refused.status).toBe(400);
    expect(await testsTo("+447700900123")).toEqual([]);
  });
});
