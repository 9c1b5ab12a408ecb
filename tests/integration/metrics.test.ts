import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueJob } from "~/services/jobs.server";
import { createPool } from "../../db/client";
import { createMetrics } from "../../server/metrics";
import { PgLocker } from "../../server/upload-locker";
import { useTestDatabase } from "../db";
import { createDelivery, createStoryteller, createUser } from "../factories";
import { type ServedBuild, serveBuild } from "../serve-build";

// GET /metrics through the real Express app and the production build: absent unless METRICS_TOKEN
// is set, refused without it, and the series an operator needs when asked with it.
const database = useTestDatabase();
const TOKEN = "metrics-token-0123456789abcdef";
const serve = (env: Record<string, string> = {}) => serveBuild(database, { env, metrics: createMetrics(database.db) });

const metrics = (base: string, authorization?: string) =>
  fetch(`${base}/metrics`, { headers: authorization ? { Authorization: authorization } : {} });

describe("/metrics without METRICS_TOKEN", () => {
  let site: ServedBuild;
  beforeAll(async () => {
    site = await serve();
  });
  afterAll(() => site.close());

  it("does not exist: the ordinary not-found page, whatever the request carries", async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}`, "Bearer "]) {
      const response = await metrics(site.base, authorization);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain("heirloom_");
    }
  });
});

describe("/metrics with METRICS_TOKEN", () => {
  let site: ServedBuild;
  let locker: PgLocker;
  beforeAll(async () => {
    site = await serve({ METRICS_TOKEN: TOKEN });
    locker = new PgLocker(createPool(database.url, 2));
  });
  afterAll(async () => {
    await site.close();
    await locker.close();
    await locker.pool.end();
  });

  it("refuses a request without the token or with another one", async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      `Basic ${TOKEN}`,
      TOKEN,
      `Bearer  ${TOKEN}`,
      `Bearer\t${TOKEN}`,
      `Bearer ${TOKEN} x`,
      `Bearer${TOKEN}`,
    ]) {
      const response = await metrics(site.base, authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
      expect(await response.text()).not.toContain("heirloom_");
    }
  });

  it("shows request latency, the queue per task, the send ledger and the uploads in progress", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      prompts: ["Your first home?", "Your first job?", "Your first friend?"],
    });
    const [first, second, third] = storyteller.prompts;
    await createDelivery(database.db, { promptId: first.id, status: "sent", sentAt: new Date() });
    await createDelivery(database.db, { promptId: second.id, status: "sent", sentAt: new Date() });
    const pending = await createDelivery(database.db, { promptId: third.id });
    await enqueueJob(database.db, "delivery__send", { deliveryId: pending.id });
    // Waiting for a worker for a minute already.
    await sql`update graphile_worker._private_jobs set run_at = now() - interval '60 seconds'`.execute(database.db);
    const lock = locker.newLock("an-upload");
    await lock.lock(new AbortController().signal, () => {});
    await (await fetch(`${site.base}/`)).text();

    const response = await metrics(site.base, `Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    await lock.unlock();

    expect(text).toMatch(/^heirloom_http_request_duration_seconds_count\{method="GET",route="\/",status="200"\} 1$/m);
    expect(text).toMatch(/^heirloom_http_request_duration_seconds_bucket\{.*le="30".*route="\/".*\} 1$/m);
    expect(text).toMatch(/^heirloom_http_requests_total\{status="2xx"\} \d+$/m);
    expect(text).toMatch(/^heirloom_jobs\{task="delivery__send",state="waiting"\} 1$/m);
    expect(text).toMatch(/^heirloom_jobs\{task="delivery__send",state="running"\} 0$/m);
    const age = Number(/^heirloom_job_oldest_waiting_seconds\{task="delivery__send"\} ([\d.]+)$/m.exec(text)?.[1]);
    expect(age).toBeGreaterThanOrEqual(60);
    expect(text).toMatch(/^heirloom_deliveries\{status="sent",channel="email"\} 2$/m);
    expect(text).toMatch(/^heirloom_deliveries\{status="pending",channel="email"\} 1$/m);
    expect(text).toMatch(/^heirloom_uploads_in_progress 1$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
  });
});
