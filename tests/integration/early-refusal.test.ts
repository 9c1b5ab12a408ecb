import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestContext } from "../context";
import { useTestDatabase } from "../db";
import { createSignedInUser, createStoryteller } from "../factories";
import { type ServedBuild, serveBuild } from "../serve-build";

// A photo that says it is 20 MB, sent by a browser without JavaScript: the answer comes at once,
// in the user's language, and the connection closes, so the browser stops sending the other 20 MB.
const database = useTestDatabase();
let site: ServedBuild;

beforeAll(async () => {
  site = await serveBuild(database, { env: { DATA_DIR: path.join(os.tmpdir(), `heirloom-${database.name}`) } });
});
afterAll(() => site.close());

const DECLARED = 20 * 1024 * 1024;
const BOUNDARY = "----early-refusal";

/**
 * The start of a multipart post declaring `DECLARED` bytes, of which only the first part of the
 * photo is sent: what came back before the server closed the connection (or the 10 s ran out).
 */
function postMostlyUnsent(target: string, cookie: string, intent: [string, string] | null) {
  const url = new URL(target, site.base);
  const head = [
    `POST ${url.pathname} HTTP/1.1`,
    `Host: ${url.host}`,
    `Origin: ${site.base}`,
    "Sec-Fetch-Site: same-origin",
    `Cookie: ${cookie}`,
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
    `Content-Length: ${DECLARED}`,
    "",
    "",
  ].join("\r\n");
  const fields = intent
    ? `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${intent[0]}"\r\n\r\n${intent[1]}\r\n`
    : "";
  const photo = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  return new Promise<{ text: string; closed: boolean; sent: number }>((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const body = Buffer.concat([Buffer.from(fields + photo), Buffer.alloc(16 * 1024, 0xff)]);
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString("utf8"), closed, sent: body.byteLength });
    };
    const timer = setTimeout(() => done(false), 10_000);
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () => done(true));
    socket.on("error", reject);
    socket.write(head);
    socket.write(body);
  });
}

describe("a photo declared larger than 5 MB, without JavaScript", () => {
  it.each([
    {
      page: "the account's photo",
      arrange: async () => ({ target: "/dashboard/user/account", intent: ["intent", "general"] as [string, string] }),
      hindi: "फ़ोटो 5 MB से बड़ी है। कृपया छोटी फ़ोटो चुनें।",
    },
    {
      page: "a Storyteller's book cover",
      arrange: async (ownerId: string) => {
        const storyteller = await createStoryteller(database.db, { ownerId, prompts: [] });
        return { target: `/dashboard/recipient/${storyteller.id}/keep`, intent: null };
      },
      hindi: "यह फ़ोटो 5 MB से बड़ी है। कोई छोटी फ़ोटो चुनें।",
    },
  ])("$page: a 413 page in her language before the body is read, and the connection closed", async (entry) => {
    const user = await createSignedInUser(makeTestContext(database), { language: "hi" });
    const { target, intent } = await entry.arrange(user.id);
    // The page once by GET first, as the browser had it open: its language cookie comes with it.
    const session = user.setCookie.split(";")[0];
    const opened = await fetch(new URL(target, site.base), { headers: { Cookie: session }, redirect: "manual" });
    const language = opened.headers.getSetCookie().map((line) => line.split(";")[0]);
    const cookie = [session, ...language].join("; ");
    const answer = await postMostlyUnsent(target, cookie, intent);
    // Answered with 16 KB of the 20 MB sent: nothing waited for the rest.
    expect(answer.sent).toBeLessThan(DECLARED / 100);
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.text).toMatch(/\r\nConnection: close\r\n/i);
    expect(answer.text).toMatch(/<html[^>]* lang="hi"/);
    expect(answer.text).toContain(entry.hindi);
    // The server ended the connection: a browser stops sending the photo and shows this page.
    expect(answer.closed).toBe(true);
  });
});
