import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { loader as editLoader } from "~/routes/dashboard.user.$nickname.edit";
import { action as inviteAction } from "~/routes/dashboard.user.new";
import { loader as photoLoader } from "~/routes/media.profile.$userId";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { CookieJar } from "../../../tests/cookie-jar";
import { useTestDatabase } from "../../../tests/db";
import { createAnswer, createSignedInUser, createStoryteller } from "../../../tests/factories";
import { action as accountAction, loader as accountLoader } from "./route";

const database = useTestDatabase();
const context = () => makeTestContext(database);

// The smallest valid PNG (1×1), and an HTML page dressed up as one.
const PNG = Uint8Array.from(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64"),
);
const HTML_AS_PNG = new TextEncoder().encode("<!doctype html><script>alert(1)</script>");

async function signedIn() {
  const user = await createSignedInUser(context(), { first_name: "Asha", last_name: "Rao" });
  const jar = new CookieJar();
  jar.store(new Response(null, { headers: { "Set-Cookie": user.setCookie } }));
  return { ...user, jar };
}

function profileForm(fields: Record<string, string>, photo?: { bytes: Uint8Array; name: string; type: string }) {
  const form = new FormData();
  form.set("intent", "general");
  for (const [key, value] of Object.entries({
    firstName: "Asha",
    lastName: "Rao",
    nickname: "asha",
    language: "en",
    ...fields,
  }))
    form.set(key, value);
  if (photo) form.set("photo", new File([Buffer.from(photo.bytes)], photo.name, { type: photo.type }));
  return form;
}

async function submit(jar: CookieJar, form: FormData) {
  const request = new Request("http://localhost:3000/dashboard/user/account", {
    method: "POST",
    body: form,
    headers: { Cookie: jar.header(), "Sec-Fetch-Site": "same-origin" },
  });
  const result = await accountAction({ request, context: context(), params: {}, ...routeArgs });
  if (result instanceof Response) jar.store(result);
  return result as
    | Response
    | {
        data?: { result: { error: Record<string, string[]> } };
        result?: { error: Record<string, string[]> };
        init?: { status: number };
      };
}

const fieldErrors = (result: Awaited<ReturnType<typeof submit>>) =>
  result instanceof Response ? null : (result.data?.result ?? result.result)!.error;

describe("account settings", () => {
  it("updates names, language and phone, and says so", async () => {
    const user = await signedIn();
    const result = await submit(
      user.jar,
      profileForm({ email: user.email, firstName: "Ashalata", language: "hi", phone: "(415) 555-2671" }),
    );
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).headers.getSetCookie().join(";")).toMatch(/lng=/);
    const row = await database.db
      .selectFrom("users")
      .select(["first_name", "language", "phone_e164"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ first_name: "Ashalata", language: "hi", phone_e164: "+14155552671" });
  });

  it("refuses too-long names and numbers no country has, with clear messages; takes any country's number", async () => {
    const user = await signedIn();
    expect(
      fieldErrors(await submit(user.jar, profileForm({ email: user.email, firstName: "x".repeat(51) }))),
    ).toMatchObject({ firstName: ["validation.tooLong"] });
    for (const phone of ["+44 7700 900123", "12345", "+91 12345"])
      expect(fieldErrors(await submit(user.jar, profileForm({ email: user.email, phone })))).toMatchObject({
        phone: ["account:errors.phoneInvalid"],
      });
    await submit(user.jar, profileForm({ email: user.email, phone: "+44 20 7946 0958" }));
    const row = await database.db
      .selectFrom("users")
      .select("phone_e164")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.phone_e164).toBe("+442079460958");
  });

  it("keeps the time zone chosen without JavaScript, refuses a name that is no zone on its field", async () => {
    const user = await signedIn();
    const page = (await accountLoader({
      request: new Request("http://localhost:3000/dashboard/user/account", { headers: { Cookie: user.jar.header() } }),
      context: context(),
      params: {},
      ...routeArgs,
    })) as { account: { time_zone: string | null }; zones: { zone: string; label: string }[] };
    expect(page.account.time_zone).toBeNull();
    expect(page.zones).toContainEqual({ zone: "Asia/Kolkata", label: "Kolkata, India" });
    const choose = (timeZone: string) => {
      const form = new FormData();
      form.set("intent", "time-zone");
      form.set("timeZone", timeZone);
      return submit(user.jar, form);
    };
    const refused = await choose("Mars/Olympus_Mons");
    expect(refused).not.toBeInstanceOf(Response);
    expect((refused as { init?: { status: number } }).init?.status).toBe(400);
    expect(fieldErrors(refused)).toMatchObject({ timeZone: ["account:timeZone.invalid"] });
    expect(await choose("Asia/Kolkata")).toBeInstanceOf(Response);
    const row = await database.db
      .selectFrom("users")
      .select("time_zone")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.time_zone).toBe("Asia/Kolkata");
  });

  it("stores a real photo, re-encoded without where it was taken, and serves it only to its owner", async () => {
    const user = await signedIn();
    // A phone photo: 1200×900 with the camera and the place it was taken in its EXIF.
    const phonePhoto = await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#3a6" } })
      .jpeg()
      .withMetadata({
        exif: { IFD0: { Make: "PhoneCo" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "40/1 42/1 46/1" } },
      })
      .toBuffer();
    expect((await sharp(phonePhoto).metadata()).exif).toBeDefined();
    await submit(
      user.jar,
      profileForm({ email: user.email }, { bytes: phonePhoto, name: "IMG_0042.jpg", type: "image/jpeg" }),
    );
    const response = await photoLoader({
      request: new Request(`http://localhost:3000/media/profile/${user.id}`, {
        headers: { Cookie: user.jar.header() },
      }),
      context: context(),
      params: { userId: user.id },
      ...routeArgs,
    });
    expect(response.headers.get("Content-Type")).toBe("image/jpeg");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const served = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(served).toMatchObject({ format: "jpeg", width: 512, height: 384 });
    expect(served.exif).toBeUndefined();

    const other = await signedIn();
    const refused = await photoLoader({
      request: new Request(`http://localhost:3000/media/profile/${user.id}`, {
        headers: { Cookie: other.jar.header() },
      }),
      context: context(),
      params: { userId: user.id },
      ...routeArgs,
    }).catch((e: Response) => e);
    expect((refused as Response).status).toBe(404);
  });

  it("rejects an HTML file renamed .png, by its content", async () => {
    const user = await signedIn();
    const result = await submit(
      user.jar,
      profileForm({ email: user.email }, { bytes: HTML_AS_PNG, name: "cute.png", type: "image/png" }),
    );
    expect(fieldErrors(result)).toMatchObject({ photo: ["account:errors.photoNotImage"] });
    const row = await database.db
      .selectFrom("users")
      .select("profile_pic_key")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.profile_pic_key).toBeNull();
  });

  it("rejects a 6 MB image with a clear message", async () => {
    const user = await signedIn();
    const big = new Uint8Array(6 * 1024 * 1024);
    big.set(PNG);
    const result = await submit(
      user.jar,
      profileForm({ email: user.email }, { bytes: big, name: "big.png", type: "image/png" }),
    );
    expect(fieldErrors(result)).toMatchObject({ photo: ["account:errors.photoTooLarge"] });
  });

  it("changes the email only after the code sent to the new address comes back", async () => {
    const user = await signedIn();
    await submit(user.jar, profileForm({ email: "new.address@example.com" }));
    expect(
      (await database.db.selectFrom("users").select("email").where("id", "=", user.id).executeTakeFirstOrThrow()).email,
    ).toBe(user.email);
    const mail = await database.db
      .selectFrom("outbox_messages")
      .select("text_body")
      .where("to_address", "=", "new.address@example.com")
      .executeTakeFirstOrThrow();
    const code = /(\d{6})/.exec(mail.text_body)![1];

    const wrong = new FormData();
    wrong.set("intent", "confirm-email");
    wrong.set("code", code === "000000" ? "111111" : "000000");
    expect(((await submit(user.jar, wrong)) as { init: { status: number } }).init.status).toBe(400);

    const right = new FormData();
    right.set("intent", "confirm-email");
    right.set("code", code);
    await submit(user.jar, right);
    expect(
      (await database.db.selectFrom("users").select("email").where("id", "=", user.id).executeTakeFirstOrThrow()).email,
    ).toBe("new.address@example.com");
  });

  it("saves notification preferences", async () => {
    const user = await signedIn();
    const form = new FormData();
    form.set("intent", "notifications");
    form.set("application", "on");
    await submit(user.jar, form);
    const row = await database.db
      .selectFrom("users")
      .select(["notify_activity", "notify_application"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ notify_activity: false, notify_application: true });
  });

  it("deletes the account, its data and its sessions once confirmed", async () => {
    const user = await signedIn();
    const storyteller = await createStoryteller(database.db, { ownerId: user.id });
    // A recorded answer, so the account's files go too.
    const { storage_key: key } = await createAnswer(database.db, {
      storytellerId: storyteller.id,
      storage: context().storage,
    });
    const unconfirmed = new FormData();
    unconfirmed.set("intent", "delete");
    expect(fieldErrors(await submit(user.jar, unconfirmed))).toMatchObject({
      confirm: ["account:delete.confirmRequired"],
    });

    const confirmed = new FormData();
    confirmed.set("intent", "delete");
    confirmed.set("confirm", "on");
    const cookieBefore = user.jar.header();
    const response = await submit(user.jar, confirmed);
    expect((response as Response).headers.get("Location")).toBe("/");
    expect(
      await database.db.selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await database.db.selectFrom("storytellers").select("id").where("owner_id", "=", user.id).execute()).toEqual(
      [],
    );
    expect(await context().storage.get(key!)).toBeNull();
    const again = await accountLoader({
      request: new Request("http://localhost:3000/dashboard/user/account", { headers: { Cookie: cookieBefore } }),
      context: context(),
      params: {},
      ...routeArgs,
    }).catch((e: Response) => e);
    expect((again as Response).status).toBe(302);
  });

  it("refuses an intent none of its forms posts with a 400, changing nothing", async () => {
    const user = await signedIn();
    for (const intent of ["generals", ""]) {
      const form = profileForm({ email: user.email, firstName: "Changed" });
      form.set("intent", intent);
      const refused = await submit(user.jar, form).catch((error: Response) => error);
      expect((refused as Response).status).toBe(400);
    }
    const row = await database.db
      .selectFrom("users")
      .select("first_name")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.first_name).toBe("Asha");
  });

  it("edits only one's own nickname; others are a 404", async () => {
    const user = await signedIn();
    const own = await editLoader({
      request: new Request("http://localhost:3000/x", { headers: { Cookie: user.jar.header() } }),
      context: context(),
      params: { nickname: user.nickname },
      ...routeArgs,
    });
    expect(own.account.id).toBe(user.id);
    const other = await editLoader({
      request: new Request("http://localhost:3000/x", { headers: { Cookie: user.jar.header() } }),
      context: context(),
      params: { nickname: "someone-else" },
      ...routeArgs,
    }).catch((e: Response) => e);
    expect((other as Response).status).toBe(404);
  });

  it("invites someone by email", async () => {
    const user = await signedIn();
    const form = new FormData();
    form.set("email", "cousin@example.com");
    const response = await inviteAction({
      request: new Request("http://localhost:3000/dashboard/user/new", {
        method: "POST",
        body: form,
        headers: { Cookie: user.jar.header() },
      }),
      context: context(),
      params: {},
      ...routeArgs,
    });
    expect((response as Response).status).toBe(302);
    const mail = await database.db
      .selectFrom("outbox_messages")
      .select(["subject", "text_body"])
      .where("to_address", "=", "cousin@example.com")
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe("Asha Rao invited you to Heirloom");
    expect(mail.text_body).toContain("http://localhost:3000/auth/register");
  });
});
