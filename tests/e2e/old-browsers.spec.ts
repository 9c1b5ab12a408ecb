import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createNotifications } from "../factories";
import { expect, signInAsNewUser, test } from "./fixtures";
import { answersFor, newOwner, notificationTypes, sentQuestion } from "./recording-helpers";

// Decision 019: a Storyteller on a browser without Fetch Metadata (Safari before
// 16.4) answers without JavaScript. Chromium plays that browser through a gateway that takes every
// request on its way to the server and removes `Sec-Fetch-*` and `Origin`, putting back the Origin
// such a browser sends. (page.route cannot do it: Chromium adds Fetch Metadata after interception,
// and an intercepted post loses its file.) The server sees exactly what an old iPad sends.

// The refused post in the last test is a 403, and its plain-text page has no favicon (404); the browser logs both.
test.use({ allowedConsoleErrors: [/status of 40[34]/] });
test.skip(({ javaScriptEnabled }) => javaScriptEnabled !== false, "the plain forms, as a browser without JavaScript");

const fixtureWebm = path.resolve("tests/fixtures/recording-3s.webm");

/** `Origin` as the old browser sends it on a post: "null" from a no-referrer page, or none at all. */
type OldBrowser = { name: string; origin: "null" | null };
const oldBrowsers: OldBrowser[] = [
  { name: "Safari before 16.4 posting Origin: null", origin: "null" },
  { name: "a browser sending neither Origin nor Sec-Fetch-*", origin: null },
];

type Forwarded = { method: string; path: string; headers: http.IncomingHttpHeaders };

/**
 * A gateway in front of the e2e server on a free port: each request goes on with the same method,
 * path and body, without Fetch Metadata and with `browser.origin` on posts. Returns its address and
 * the requests as the server got them.
 */
async function oldBrowserGateway(target: string, browser: OldBrowser) {
  const upstream = new URL(target);
  const forwarded: Forwarded[] = [];
  const server = http.createServer((request, response) => {
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => name !== "origin" && !name.startsWith("sec-fetch-")),
    );
    headers.host = upstream.host;
    if (request.method === "POST" && browser.origin) headers.origin = browser.origin;
    forwarded.push({ method: request.method!, path: new URL(request.url!, target).pathname, headers });
    const onward = http.request(
      { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers },
      (answer) => {
        response.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(response);
      },
    );
    onward.on("error", () => response.destroy());
    request.pipe(onward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    forwarded,
    // The browser keeps its connections open; close them too, or close() waits for them.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

for (const browser of oldBrowsers) {
  test(`${browser.name}: skip a question, and answer another with a file`, async ({ page, db, baseURL }) => {
    const gateway = await oldBrowserGateway(baseURL!, browser);
    try {
      const owner = await newOwner(db);

      const skipped = await sentQuestion(db, owner.id);
      await page.goto(`${gateway.base}${skipped.url}`);
      await page.getByText("Skip this question", { exact: true }).click();
      await page.getByLabel("Yes, I want to skip this question").check();
      await page.getByRole("button", { name: "Skip", exact: true }).click();
      await expect(page.getByRole("status")).toHaveText("You skipped this question. Thank you for letting us know.");
      expect(await notificationTypes(db, owner.id, skipped.promptId)).toEqual(["skipped"]);

      const answered = await sentQuestion(db, owner.id);
      await page.goto(`${gateway.base}${answered.url}`);
      await page.getByLabel("Choose a recording, or record one with your phone").setInputFiles(fixtureWebm);
      await page.getByRole("button", { name: "Send this recording" }).click();
      await expect(page.getByRole("main").getByRole("status").getByRole("heading", { level: 2 })).toHaveText(
        "Sent. Thank you.",
      );
      const [answer] = await answersFor(db, answered.promptId);
      expect(answer).toMatchObject({ content_type: "audio/webm", is_private: false });

      // The two posts reached the server as that browser sends them.
      const posts = gateway.forwarded.filter((request) => request.method === "POST");
      expect(posts.map((post) => post.path)).toEqual([`/record/${skipped.token}`, `/record/${answered.token}`]);
      for (const post of posts) {
        expect(Object.keys(post.headers).filter((name) => name.startsWith("sec-fetch-"))).toEqual([]);
        expect(post.headers.origin).toBe(browser.origin ?? undefined);
      }
    } finally {
      await gateway.close();
    }
  });
}

test("the same browser is still refused on a signed-in form, which needs our Origin", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const gateway = await oldBrowserGateway(baseURL!, oldBrowsers[0]);
  try {
    const user = await signInAsNewUser(db, context, gateway.base, "Farah");
    const { storytellerId } = await sentQuestion(db, user.id);
    await createNotifications(db, { userId: user.id, type: "uploaded", storytellerId, createdAt: [new Date()] });
    await page.goto(`${gateway.base}/dashboard/notifications`);
    await page.getByRole("button", { name: "Mark all as read" }).click();
    await expect(page.getByText("This form was sent from another website, so it was not accepted.")).toBeVisible();
    const unread = await db
      .selectFrom("notifications")
      .select("id")
      .where("user_id", "=", user.id)
      .where("is_new", "=", true)
      .execute();
    expect(unread).toHaveLength(1);
  } finally {
    await gateway.close();
  }
});
