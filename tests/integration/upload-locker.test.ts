import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { ERRORS } from "@tus/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signCapability } from "~/services/tokens.server";
import { createUploadStore } from "~/services/uploads.server";
import { createDb, createPool } from "../../db/client";
import { PgLocker } from "../../server/upload-locker";
import { createUploadServer } from "../../server/uploads";
import { makeTestContext } from "../context";
import { useTestDatabase } from "../db";
import { createStoryteller, createUser } from "../factories";
import { type S3StandIn, startS3StandIn } from "../s3-stand-in";
import { allowConsoleErrors } from "../setup/fail-on-console-error";

// Two web "processes" on one database and one S3 store: each with its own connection pools, its
// own PgLocker and its own tus server, as two `npm run serve` would have. They contend for one
// upload; the second waits for the first to let go and never writes at a wrong offset.

const database = useTestDatabase();
const webm = readFileSync(path.resolve("tests/fixtures/recording-3s.webm"));
const half = Math.floor(webm.length / 2);

type Process = { base: string; locker: PgLocker; close: () => Promise<void> };
let s3: S3StandIn;
let one: Process;
let two: Process;
const pools: ReturnType<typeof createPool>[] = [];

async function startProcess(lockerOptions: { acquireTimeoutMs?: number } = {}): Promise<Process> {
  const pool = createPool(database.url, 3);
  const lockPool = createPool(database.url, 5);
  pools.push(pool, lockPool);
  const locker = new PgLocker(lockPool, { retryMs: 20, ...lockerOptions });
  await locker.listen();
  const {
    cspNonce: _n,
    clientIp: _c,
    fromLoopback: _l,
    ...services
  } = makeTestContext({ ...database, db: createDb(pool), pool }, { NODE_ENV: "production", ...s3.config });
  const uploads = createUploadServer(services, { locker });
  const server = http.createServer((req, res) => void uploads.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    locker,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await locker.close();
    },
  };
}

beforeAll(async () => {
  s3 = await startS3StandIn();
  one = await startProcess();
  two = await startProcess();
});
afterAll(async () => {
  await one?.close();
  await two?.close();
  for (const pool of pools) if (!pool.ended) await pool.end();
  await s3?.close();
});

async function sentPromptToken() {
  const owner = await createUser(database.db);
  const storyteller = await createStoryteller(database.db, { ownerId: owner.id });
  const prompt = storyteller.prompts[0];
  await database.db.updateTable("prompts").set({ sent_at: new Date() }).where("id", "=", prompt.id).execute();
  return { prompt, token: await signCapability(makeTestContext(database).config, "record", prompt.id) };
}

const tus = { "Tus-Resumable": "1.0.0" };

async function createUpload(base: string, token: string) {
  const response = await fetch(`${base}/uploads`, {
    method: "POST",
    headers: { ...tus, "Upload-Length": String(webm.length), "Upload-Metadata": `token ${btoa(token)}` },
  });
  expect(response.status).toBe(201);
  return new URL(response.headers.get("location")!, base).pathname;
}

const patch = (base: string, location: string, offset: number, body: BodyInit) =>
  fetch(`${base}${location}`, {
    method: "PATCH",
    headers: { ...tus, "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" },
    body,
    duplex: "half",
  } as RequestInit);

const head = (base: string, location: string) => fetch(`${base}${location}`, { method: "HEAD", headers: tus });

/** A PATCH that sends `first` at once and then nothing more until `finish` is called (a stalled phone). */
function stalledPatch(base: string, location: string, first: Buffer) {
  let finish = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(first));
      finish = () => {
        try {
          controller.close();
        } catch {
          // The server has already ended the request.
        }
      };
    },
  });
  const response = patch(base, location, 0, body).then(
    (r) => ({ status: r.status, offset: r.headers.get("upload-offset") }),
    () => ({ status: 0, offset: null }),
  );
  return { response, finish: () => finish() };
}

const waitFor = async (what: () => boolean) => {
  for (let i = 0; i < 500 && !what(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(what()).toBe(true);
};

describe("the PostgreSQL upload locker", () => {
  it("lets one holder at a time have an upload, across separate pools, and asks the holder to let go", async () => {
    const releaseAsked: string[] = [];
    const a = one.locker.newLock("upload-a");
    await a.lock(new AbortController().signal, () => void releaseAsked.push("one"));
    expect(one.locker.heldCount).toBe(1);

    const b = two.locker.newLock("upload-a");
    let bHasIt = false;
    const waiting = b.lock(new AbortController().signal, () => {}).then(() => (bHasIt = true));
    // The holder in the other "process" hears the request to let go (NOTIFY)...
    await waitFor(() => releaseAsked.length > 0);
    expect(bHasIt).toBe(false);
    // ...and only once it lets go does the second get the lock.
    await a.unlock();
    await waiting;
    expect(bHasIt).toBe(true);
    await b.unlock();
    expect(two.locker.heldCount).toBe(0);
  });

  it("gives up with tus's lock timeout when the holder does not let go, and at once when the request ends", async () => {
    const stubborn = new PgLocker(pools[1], { acquireTimeoutMs: 300, retryMs: 20 });
    const a = one.locker.newLock("upload-b");
    await a.lock(new AbortController().signal, () => {});
    await expect(stubborn.newLock("upload-b").lock(new AbortController().signal, () => {})).rejects.toBe(
      ERRORS.ERR_LOCK_TIMEOUT,
    );
    const ended = new AbortController();
    const pending = two.locker.newLock("upload-b").lock(ended.signal, () => {});
    ended.abort();
    await expect(pending).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    await a.unlock();
    await stubborn.close();
  });

  it("frees an upload when the process holding it dies (its session ends)", async () => {
    allowConsoleErrors(1); // the pool reports the connection PostgreSQL ended
    const dying = new PgLocker(createPool(database.url, 1));
    const lost: string[] = [];
    const dyingLock = dying.newLock("upload-c");
    await dyingLock.lock(new AbortController().signal, () => void lost.push("told"));
    // What a killed process leaves: PostgreSQL ends its session.
    await database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND granted AND pid <> pg_backend_pid()
       AND objid = (hashtext('upload-c')::bigint & 4294967295)::oid`,
      [0x74757300],
    );
    const b = two.locker.newLock("upload-c");
    await b.lock(new AbortController().signal, () => {});
    await b.unlock();
    // The holder was told its lock is gone, so its request stops writing.
    await waitFor(() => lost.length > 0);
    await dyingLock.unlock();
    await dying.close();
    await dying.pool.end();
  });
});

describe("two web processes receiving one upload", () => {
  it("makes the second wait for the first, then tells it the true offset; a stale offset gets 409", async () => {
    const { prompt, token } = await sentPromptToken();
    const location = await createUpload(one.base, token);

    // Process one receives the first half, then the phone stalls with the request still open.
    const stalled = stalledPatch(one.base, location, webm.subarray(0, half));
    await waitFor(() => one.locker.heldCount === 1);

    // The phone gives up on it and asks process two where to go on. Two asks one to let go and
    // waits: one ends its PATCH, keeping the half it received (stored only as its request ends, so
    // an answer given without waiting would say 0).
    const asked = await head(two.base, location);
    expect(one.locker.heldCount).toBe(0);
    expect(asked.headers.get("upload-offset")).toBe(String(half));
    stalled.finish();
    await stalled.response;

    // A PATCH from the start is refused instead of writing over what is there.
    const stale = await patch(two.base, location, 0, new Uint8Array(webm));
    expect(stale.status).toBe(409);
    // From the true offset, the rest completes the upload on process two.
    const rest = await patch(two.base, location, half, new Uint8Array(webm.subarray(half)));
    expect(rest.status).toBe(204);
    const answerId = rest.headers.get("heirloom-answer");
    const answers = await database.db
      .selectFrom("answers")
      .select(["id", "byte_size", "storage_key"])
      .where("prompt_id", "=", prompt.id)
      .execute();
    expect(answers.map(({ id, byte_size }) => ({ id, byte_size }))).toEqual([
      { id: answerId, byte_size: String(webm.length) },
    ]);
    // The bytes that became the answer are the recording's, in order (makeTestContext's local storage).
    const stored = readFileSync(
      path.join(os.tmpdir(), `heirloom-test-files-${database.name}`, answers[0].storage_key!),
    );
    expect(stored.equals(webm)).toBe(true);
  });

  it("never lets two processes write the same upload at once: concurrent PATCHes at one offset, one wins", async () => {
    const { prompt, token } = await sentPromptToken();
    const location = await createUpload(one.base, token);
    const results = await Promise.all(
      [one, two, one, two].map((p) => patch(p.base, location, 0, new Uint8Array(webm.subarray(0, half)))),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([204, 409, 409, 409]);
    expect((await head(one.base, location)).headers.get("upload-offset")).toBe(String(half));
    expect((await patch(two.base, location, half, new Uint8Array(webm.subarray(half)))).status).toBe(204);
    const answers = await database.db.selectFrom("answers").select("id").where("prompt_id", "=", prompt.id).execute();
    expect(answers).toHaveLength(1);
  });

  it("tells the client to retry (423) when the holder does not let go in time", async () => {
    const { token } = await sentPromptToken();
    const location = await createUpload(one.base, token);
    const impatient = await startProcess({ acquireTimeoutMs: 300 });
    const held = one.locker.newLock(location.split("/").pop()!);
    // A holder that ignores the request to let go (its process is stuck).
    await held.lock(new AbortController().signal, () => {});
    try {
      const refused = await patch(impatient.base, location, 0, new Uint8Array(webm.subarray(0, half)));
      expect(refused.status).toBe(423);
    } finally {
      await held.unlock();
      await impatient.close();
    }
    // Nothing was written: the upload is where it was.
    expect((await head(two.base, location)).headers.get("upload-offset")).toBe("0");
  });

  it("finishes, on a HEAD, an upload whose process died after its last byte", async () => {
    const { prompt, token } = await sentPromptToken();
    const location = await createUpload(one.base, token);
    // All bytes are in the store, but no answer was made (as when the process dies finishing).
    const id = location.split("/").pop()!;
    const {
      cspNonce: _n,
      clientIp: _c,
      fromLoopback: _l,
      ...services
    } = makeTestContext(database, {
      NODE_ENV: "production",
      ...s3.config,
    });
    const store = createUploadStore(services.config);
    await store.write(Readable.from([webm]), id, 0);
    const asked = await head(two.base, location);
    expect(asked.status).toBe(200);
    expect(asked.headers.get("upload-offset")).toBe(String(webm.length));
    const answers = await database.db.selectFrom("answers").select("id").where("prompt_id", "=", prompt.id).execute();
    expect(answers).toEqual([{ id: asked.headers.get("heirloom-answer") }]);
    // It is gone from the store; asking again is a plain 404, not a second answer.
    expect((await head(one.base, location)).status).toBe(404);
  });
});
