// What a self-hoster does with a running image, over HTTP as a browser without JavaScript would:
// `tsx scripts/test-image/checks.ts fresh|kept`, with BASE_URL (the app's APP_URL), EXEC (the
// command that runs a command in the app's container, e.g. "podman exec heirloom") and STATE (a
// file carrying the session and record link from `fresh` to `kept`, after a stop/start).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { CookieJar } from "../../tests/cookie-jar";

const base = process.env.BASE_URL!;
const exec = (process.env.EXEC ?? "").split(" ").filter(Boolean);
const stateFile = process.env.STATE!;
const email = process.env.CHECK_EMAIL ?? "image-check@example.com";
const jar = new CookieJar();

async function step(name: string, run: () => Promise<string | void>) {
  const started = Date.now();
  const detail = await run();
  console.log(`    ok  ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)${detail ? `: ${detail}` : ""}`);
}

function must(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function request(path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("cookie", jar.header());
  if (init.method === "POST") headers.set("origin", base);
  const send = () => fetch(new URL(path, base), { ...init, headers, redirect: "manual" });
  // A kept-alive connection the server closed as it was reused: a GET is safe to send again.
  return jar.store(await send().catch((error: unknown) => (init.method ? Promise.reject(error) : send())));
}

async function page(path: string) {
  const response = await request(path);
  must(response.status === 200, `GET ${path} answered ${response.status}`);
  return response.text();
}

const post = (path: string, fields: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
  return request(path, { method: "POST", body });
};

function inContainer(...args: string[]) {
  return execFileSync(exec[0], [...exec.slice(1), ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

async function until<T>(what: string, seconds: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** A page bigger than 2 KB read twice over one keep-alive connection without Accept-Encoding. */
function landingTwiceUncompressed() {
  const client = base.startsWith("https:") ? https : http;
  const agent = new client.Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<string>((resolve, reject) => {
      client
        .get(new URL("/", base), { agent }, (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (text += chunk));
          response.on("end", () => resolve(text));
        })
        .on("error", reject);
    });
  return once()
    .then((first) => once().then((second) => [first, second]))
    .finally(() => agent.destroy());
}

/** Three seconds of a 440 Hz tone, 8 kHz 16-bit mono WAV: a recording the AAC job converts. */
function toneWav(seconds = 3, rate = 8000) {
  const samples = seconds * rate;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write("RIFF", 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write("WAVEfmt ", 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++)
    wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return wav;
}

async function signIn() {
  await page("/auth/login");
  const asked = await post("/auth/login", { email });
  must(asked.status === 302 || asked.status === 303, `POST /auth/login answered ${asked.status}`);
  const code = await until("the sign-in code in `npm run outbox`", 30, async () => {
    const messages = inContainer("npm", "run", "--silent", "outbox", "--", "--limit", "5").split("\n--- ");
    const mine = messages.filter((m) => m.includes(` to ${email} `)).at(-1);
    return (mine?.match(/code=(\d{6})/) ?? mine?.match(/\b(\d{6})\b/))?.[1];
  });
  const verified = await post("/auth/verify", { code });
  must(verified.headers.get("location")?.endsWith("/dashboard"), `the code did not sign in (${verified.status})`);
  must((await page("/dashboard")).includes("/dashboard/recipient/"), "the dashboard lists no Storyteller");
  return `code ${code} from npm run outbox`;
}

async function uploadAnswer() {
  const outbox = inContainer("npm", "run", "--silent", "outbox", "--", "--limit", "50");
  const tokens = [...new Set([...outbox.matchAll(/\/record\/([A-Za-z0-9._~-]+)/g)].map((m) => m[1]))];
  for (const token of tokens) {
    const form = new FormData();
    form.append("audio", new Blob([toneWav()], { type: "audio/wav" }), "answer.wav");
    const response = await request(`/record/${token}`, { method: "POST", body: form });
    if (response.status !== 200) continue;
    const aac = await until("the answer's AAC copy", 90, async () => {
      const audio = await request(`/record/${token}/audio`);
      await audio.arrayBuffer();
      return audio.headers.get("content-type")?.startsWith("audio/mp4")
        ? audio.headers.get("content-length")
        : undefined;
    });
    return { token, detail: `WAV answered through a record link; AAC copy served (${aac} bytes)` };
  }
  throw new Error(`no record link in the outbox took an answer (${tokens.length} tried)`);
}

async function printBook() {
  const dashboard = await page("/dashboard");
  const storytellers = [
    ...new Set([...dashboard.matchAll(/\/dashboard\/recipient\/([0-9a-f-]{36})/g)].map((m) => m[1])),
  ];
  for (const id of storytellers) {
    const keep = await page(`/dashboard/recipient/${id}/keep`);
    const answers = [...keep.matchAll(/<input[^>]*name="include"[^>]*>/g)].map(
      (m) => /value="([0-9a-f-]{36})"/.exec(m[0])![1],
    );
    if (!answers.length) continue;
    const positions = Object.fromEntries(answers.map((answer, i) => [`position-${answer}`, String(i + 1)]));
    // The book's language as the page offers it (the Storyteller's, checked).
    const language = [...keep.matchAll(/<input[^>]*name="language"[^>]*>/g)]
      .map((m) => m[0])
      .find((input) => /\bchecked\b/.test(input));
    must(language !== undefined, "the keep page offers no book language");
    const queued = await post(`/dashboard/recipient/${id}/keep`, {
      intent: "book",
      title: "Image check",
      paper: "a4",
      cover: "none",
      language: /value="([a-z]{2})"/.exec(language!)![1],
      include: answers,
      ...positions,
    });
    must(queued.status === 302 || queued.status === 303, `the book was not queued (${queued.status})`);
    const download = await until("the book", 120, async () => {
      const html = await page(`/dashboard/recipient/${id}/keep`);
      must(!html.includes('data-keepsake="failed"'), "the book failed to print");
      return /href="(\/dashboard\/keep\/[0-9a-f-]{36}\/download)"/.exec(html)?.[1];
    });
    const pdf = await request(download);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    must(bytes.subarray(0, 5).toString() === "%PDF-", `the book is not a PDF (${pdf.status})`);
    return `${answers.length} answers, PDF of ${bytes.length} bytes`;
  }
  throw new Error("no Storyteller with answers to print");
}

async function fresh() {
  await step("health", async () => {
    const response = await request("/healthz");
    must(response.status === 200, `/healthz answered ${response.status}`);
  });
  await step("landing page, >2 KB without Accept-Encoding, twice on one connection", async () => {
    const [first, second] = await landingTwiceUncompressed();
    must(first.length > 2048 && first.includes("</html>"), `first read cut at ${first.length} bytes`);
    // (Each page has its own CSP nonce, so the two differ in that alone.)
    must(
      second.length > 2048 && second.includes("</html>"),
      `second read on the connection cut at ${second.length} bytes`,
    );
    return `${first.length} bytes`;
  });
  await step("db:seed in the container", async () => {
    const out = inContainer("npm", "run", "--silent", "db:seed", "--", "--email", email);
    must(out.includes("npm run outbox"), "db:seed's hint does not name `npm run outbox`");
  });
  await step("sign-in through the outbox", signIn);
  let token = "";
  await step("upload gets its AAC copy", async () => {
    const uploaded = await uploadAnswer();
    token = uploaded.token;
    return uploaded.detail;
  });
  await step("keepsake book printed by Chromium", printBook);
  writeFileSync(stateFile, JSON.stringify({ cookies: jar.header(), token }));
}

async function kept() {
  const state = JSON.parse(readFileSync(stateFile, "utf8")) as { cookies: string; token: string };
  for (const pair of state.cookies.split("; ")) {
    jar.store(new Response(null, { headers: { "set-cookie": pair } }));
  }
  await step("after stop/start: still signed in, the answer and its AAC copy kept", async () => {
    must((await page("/dashboard")).includes("/dashboard/recipient/"), "the session or the family is gone");
    const audio = await request(`/record/${state.token}/audio`);
    await audio.arrayBuffer();
    must(audio.headers.get("content-type")?.startsWith("audio/mp4"), `the answer's audio: ${audio.status}`);
  });
}

/** Straight to nginx on a port of its own (not 80): a form post keeps its Host and passes the origin check. */
async function proxy() {
  await step(`form post through nginx on ${new URL(base).host}`, async () => {
    await page("/auth/login");
    const asked = await post("/auth/login", { email });
    must(asked.status === 302 || asked.status === 303, `POST /auth/login answered ${asked.status}`);
  });
}

const phases: Record<string, () => Promise<void>> = { fresh, kept, proxy };
phases[process.argv[2]]().catch((error: Error) => {
  console.error(`    FAILED: ${error.message}${error.cause ? ` (${String(error.cause)})` : ""}`);
  process.exit(1);
});
