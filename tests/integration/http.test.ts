import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signCapability } from "~/services/tokens.server";
import { makeTestContext } from "../context";
import { useTestDatabase } from "../db";
import { createSignedInUser, createStoryteller, createUser } from "../factories";
import { builtRoutes, pagesFromManifest, signedOutPage } from "../route-pages";
import { serveBuild } from "../serve-build";

// The production build served by the real Express app, on a test database.
const database = useTestDatabase();

/** fetch() may not set Host; node:http can. */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { Host: host } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", reject);
  });
}
describe("HTTP server", () => {
  let base: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ base, close } = await serveBuild(database));
  });
  afterAll(() => close());

  it("serves the landing page with security headers and no script; a page with scripts has a CSP nonce on each", async () => {
    const response = await fetch(`${base}/`);
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    // Ordinary pages tell other sites nothing but our origin; capability pages say less (below).
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
    // Public pages are served without React (decision 026): one small standalone script, no entry.
    const landing = await response.text();
    expect(landing).not.toContain("entry.client");
    const landingScripts = [...landing.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(landingScripts).toEqual([expect.stringMatching(/^\/assets\/public-page-[\w-]+\.js$/)]);
    const app = await fetch(`${base}/dev/outbox`);
    const appNonce = /'nonce-([^']+)'/.exec(app.headers.get("content-security-policy") ?? "")?.[1];
    const html = await app.text();
    const scripts = [...html.matchAll(/<script(?![^>]*type="application\/json")[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${appNonce}"`);
  });

  it("serves hashed scripts precompressed, brotli first, cached for a year", async () => {
    const html = await (await fetch(`${base}/dev/outbox`)).text();
    const script = /\/assets\/entry\.client-[\w-]+\.js/.exec(html)?.[0];
    expect(script).toBeTruthy();
    const headersFor = (encoding: string) =>
      new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
        http
          .get(`${base}${script}`, { headers: { "Accept-Encoding": encoding } }, (response) => {
            response.resume();
            resolve(response.headers);
          })
          .on("error", reject);
      });
    const brotli = await headersFor("gzip, deflate, br");
    expect(brotli["content-encoding"]).toBe("br");
    expect(brotli["content-type"]).toMatch(/javascript/);
    expect(brotli["cache-control"]).toContain("immutable");
    expect((await headersFor("gzip"))["content-encoding"]).toBe("gzip");
  });

  it("sends a rendered page whole, with its length, not in chunks (decision 059)", async () => {
    const { statusCode, headers, bytes } = await new Promise<{
      statusCode?: number;
      headers: http.IncomingHttpHeaders;
      bytes: number;
    }>((resolve, reject) => {
      http
        .get(`${base}/dev/outbox`, (response) => {
          let bytes = 0;
          response.on("data", (chunk: Buffer) => (bytes += chunk.byteLength));
          response.on("end", () => resolve({ statusCode: response.statusCode, headers: response.headers, bytes }));
        })
        .on("error", reject);
    });
    expect(statusCode).toBe(200);
    expect(headers["transfer-encoding"]).toBeUndefined();
    expect(Number(headers["content-length"])).toBe(bytes);
    expect(bytes).toBeGreaterThan(1000);
  });

  it("renders unknown paths as the 404 page with status 404, in place", async () => {
    const response = await fetch(`${base}/no/such/page`, { redirect: "manual" });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Page not found");
    expect((await fetch(`${base}/404`)).status).toBe(404);
    expect((await fetch(`${base}/500`)).status).toBe(500);
  });

  it("speaks Hindi for ?lng=hi and for a saved choice", async () => {
    const html = await (await fetch(`${base}/?lng=hi`)).text();
    expect(html).toContain('<html lang="hi"');
    expect(html).toContain("साइन इन करें");
    const saved = await fetch(`${base}/resources/language`, {
      method: "POST",
      redirect: "manual",
      headers: { "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded" },
      body: "lng=hi&redirectTo=/faqs",
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/faqs");
    const cookie = saved.headers.get("set-cookie")!.split(";")[0];
    const page = await (await fetch(`${base}/`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain('<html lang="hi"');
  });

  it("tells families on the landing page and in the FAQs that WhatsApp and phone calls reach a Storyteller", async () => {
    const page = async (path: string) => (await (await fetch(`${base}${path}`)).text()).replace(/&#x27;|&#39;/g, "'");
    for (const path of ["/", "/faqs"]) {
      const english = await page(path);
      expect(english, path).toContain("WhatsApp");
      expect(english, path).toMatch(/phone call|phone line/);
      const hindi = await page(`${path}?lng=hi`);
      expect(hindi, path).toContain("WhatsApp");
      expect(hindi, path).toMatch(/फ़ोन कॉल|फ़ोन लाइन/);
    }
    // And a WhatsApp voice note is an answer, said where people ask how to answer.
    expect(await page("/faqs")).toContain("reply with a voice note");
  });

  it("picks the language from Accept-Language when nothing was chosen", async () => {
    const html = await (await fetch(`${base}/`, { headers: { "Accept-Language": "hi-IN,hi;q=0.9,en;q=0.5" } })).text();
    expect(html).toContain('<html lang="hi"');
  });

  it("renders theme settings from the cookie on the server", async () => {
    const saved = await fetch(`${base}/resources/theme`, {
      method: "POST",
      redirect: "manual",
      headers: { "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded" },
      body: "mode=dark&textSize=large&color=cyan&redirectTo=/about-us",
    });
    expect(saved.headers.get("location")).toBe("/about-us");
    const cookies = saved.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const html = await (await fetch(`${base}/`, { headers: { Cookie: cookies } })).text();
    expect(html).toMatch(/<html lang="en" dir="ltr" data-text-size="large" data-mode="dark" data-color="cyan"/);
    expect(html).toContain("Settings saved"); // the flash toast, rendered without JavaScript
  });

  it("refuses cross-site form posts but lets webhooks through to their own checks", async () => {
    const crossSite = await fetch(`${base}/contact-us`, {
      method: "POST",
      headers: { "Sec-Fetch-Site": "cross-site" },
      body: new URLSearchParams({ name: "x" }),
    });
    expect(crossSite.status).toBe(403);
    const foreignOrigin = await fetch(`${base}/contact-us`, {
      method: "POST",
      headers: { Origin: "https://evil.example" },
      body: new URLSearchParams({ name: "x" }),
    });
    expect(foreignOrigin.status).toBe(403);
    const webhook = await fetch(`${base}/webhooks/anything`, {
      method: "POST",
      headers: { "Sec-Fetch-Site": "cross-site" },
    });
    expect(webhook.status).not.toBe(403);
  });

  it("unsubscribes by one-click with no cookie, and from the page's own form that posts Origin: null", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const make = async () => {
      const { id } = await createStoryteller(database.db, { ownerId: owner.id, timeZone: "UTC", prompts: [] });
      return { id, token: await signCapability(makeTestContext(database).config, "unsubscribe", id) };
    };
    const unsubscribedAt = async (id: string) =>
      (
        await database.db
          .selectFrom("storytellers")
          .select("unsubscribed_at")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).unsubscribed_at;

    // RFC 8058: a mail client's POST, cross-site, no cookie.
    const mailClient = await make();
    const oneClick = await fetch(`${base}/unsubscribe/${mailClient.token}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(oneClick.headers.get("referrer-policy")).toBe("no-referrer, strict-origin");
    expect(await oneClick.text()).toContain("Unsubscribed successfully");
    expect(await unsubscribedAt(mailClient.id)).not.toBeNull();

    // The page is sent with Referrer-Policy: no-referrer (its URL is the token: no Referer may carry
    // it off-site), once, in place of the site-wide value; so the browser's form post says Origin: null.
    const page = await make();
    const shown = await fetch(`${base}/unsubscribe/${page.token}`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get("referrer-policy")).toBe("no-referrer, strict-origin");
    expect(shown.headers.get("cache-control")).toBe("no-store");
    // One button: server markup and a plain form, no React sent to her phone.
    const shownHtml = await shown.text();
    expect(shownHtml).toContain('<form method="post"');
    expect(shownHtml).not.toContain("entry.client");
    const viaPage = await fetch(`${base}/unsubscribe/${page.token}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", Origin: "null" },
      body: "",
    });
    expect(viaPage.status).toBe(200);
    expect(await unsubscribedAt(page.id)).not.toBeNull();
  });

  it("serves every page a Storyteller or a stranger opens from a message without React", async () => {
    const pages = pagesFromManifest(await builtRoutes(), () => "x").filter(({ id }) => signedOutPage(id));
    expect(pages.map(({ pattern }) => pattern)).toEqual(
      expect.arrayContaining([
        "/record/:token",
        "/unsubscribe/:token",
        "/s/:token",
        "/l/:token",
        "/invitations/:token",
      ]),
    );
    for (const { pattern, standalone } of pages) expect(standalone, pattern).toBe(true);
  });

  it("shows /dev/outbox only to direct loopback visitors addressing a loopback name", async () => {
    expect((await fetch(`${base}/dev/outbox`)).status).toBe(200);
    expect((await fetch(`${base}/dev/outbox`, { headers: { "X-Forwarded-For": "203.0.113.9" } })).status).toBe(404);
    expect((await fetch(`${base}/dev/outbox`, { headers: { "X-Real-IP": "203.0.113.9" } })).status).toBe(404);
    // A DNS-rebinding page reaches 127.0.0.1 under its own name.
    expect(await statusWithHost(`${base}/dev/outbox`, "rebind.evil.example")).toBe(404);
  });

  it("answers malformed requests with 4xx, not 500", async () => {
    expect((await fetch(`${base}/locales/en/toString`)).status).toBe(404);
    expect((await fetch(`${base}/locales/xx/common`)).status).toBe(404);
    const notAForm = await fetch(`${base}/resources/theme`, {
      method: "POST",
      headers: { "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" },
      body: "{",
    });
    expect(notAForm.status).toBe(400);
  });

  it("sends the language switch back only to a page of this site", async () => {
    const switchTo = async (redirectTo: string) => {
      const response = await fetch(`${base}/resources/language`, {
        method: "POST",
        redirect: "manual",
        headers: { "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ lng: "hi", redirectTo }),
      });
      expect(response.status, redirectTo).toBe(302);
      return response.headers.get("location")!;
    };
    // Unchecked, the first three come out of URL parsing as "//evil.example…", a Location that leaves
    // the site; the rest point at another host too and must not land on some path of ours instead.
    for (const hostile of [
      "//evil.example//evil.example/x",
      "https://evil.example//evil.example",
      "/.//evil.example",
      "//evil.example/x",
      "/\t/evil.example",
      "/\\evil.example",
    ]) {
      const location = await switchTo(hostile);
      expect(location, hostile).toBe("/");
      expect(new URL(location, base).origin, hostile).toBe(new URL(base).origin);
    }
    expect(await switchTo("/faqs?x=1")).toBe("/faqs?x=1");
  });

  it("sends /maintenance home while maintenance mode is off", async () => {
    const response = await fetch(`${base}/maintenance`, { redirect: "manual" });
    expect(response.status).toBe(302);
  });

  it("tells every cache to keep no signed-in page (they can hold live share links), nor its data", async () => {
    const me = await createSignedInUser(makeTestContext(database), { first_name: "Priya" });
    const { id: storytellerId } = await createStoryteller(database.db, { ownerId: me.id, timeZone: "UTC" });
    const signedIn = { Cookie: me.cookie };
    for (const pagePath of [
      "/dashboard",
      "/dashboard/notifications",
      "/dashboard/user/account",
      "/dashboard/user/profile",
      "/dashboard/mystories",
      "/dashboard/timeline",
      `/dashboard/recipient/${storytellerId}`,
      `/responses/${storytellerId}`,
      "/dashboard/no-such-page",
      "/faqs", // a public page still shows who is signed in
      "/dashboard/notifications.data", // a client-side navigation's data
      `/dashboard/recipient/${storytellerId}.data`,
    ]) {
      const response = await fetch(`${base}${pagePath}`, { headers: signedIn, redirect: "manual" });
      expect(response.status, pagePath).toBeLessThan(500);
      expect(response.headers.get("cache-control"), pagePath).toBe("private, no-store");
    }
    // Signed out, the public pages stay cacheable.
    expect((await fetch(`${base}/faqs`)).headers.get("cache-control")).toBeNull();
  });

  it("sends signed-out dashboard visitors to log in, remembering where they were going", async () => {
    const response = await fetch(`${base}/dashboard/notifications?x=1`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/auth/login?redirectTo=%2Fdashboard%2Fnotifications%3Fx%3D1");
  });
});

describe("a self-hoster's own name and address", () => {
  it("appear in every page's text in both languages, server-rendered and embedded for the browser", async () => {
    const { base, close } = await serveBuild(database, {
      env: { APP_NAME: "Kahani", APP_URL: "https://kahani.example" },
    });
    try {
      for (const lng of ["en", "hi"]) {
        const html = await (await fetch(`${base}/registered-texts?lng=${lng}`)).text();
        expect(html).toContain("Kahani");
        expect(html).toContain("https://kahani.example/record/");
        const rendered = html.split('<script id="i18n-resources"')[0]; // the embedded raw strings keep their {{placeholders}}
        expect(rendered).not.toMatch(/Heirloom|हेयरलूम|\{\{appName\}\}/);
        // A page the browser hydrates embeds the same variables for its translations.
        const app = await (await fetch(`${base}/dev/outbox?lng=${lng}`)).text();
        expect(app).toContain('"variables":{"appName":"Kahani","appUrl":"https://kahani.example"}');
      }
    } finally {
      await close();
    }
  });
});

describe("maintenance mode", () => {
  it("answers every page with the maintenance page and 503", async () => {
    const { base, close } = await serveBuild(database, { env: { MAINTENANCE_MODE: "1" } });
    try {
      for (const pagePath of ["/", "/faqs", "/dashboard", "/no/such/page"]) {
        const response = await fetch(`${base}${pagePath}`, { redirect: "manual" });
        expect(response.status, pagePath).toBe(503);
        expect(await response.text()).toContain("We&#x27;ll be right back");
      }
      const post = await fetch(`${base}/contact-us`, { method: "POST", headers: { "Sec-Fetch-Site": "same-origin" } });
      expect(post.status).toBe(503);
    } finally {
      await close();
    }
  });
});
