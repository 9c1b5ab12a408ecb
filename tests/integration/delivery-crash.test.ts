import { spawn } from "node:child_process";
import { once } from "node:events";
import { makeWorkerUtils, runOnce } from "graphile-worker";
import { afterEach, describe, expect, it } from "vitest";
import { queueSendNow } from "~/models/delivery.server";
import { createPostmarkMail } from "~/services/mail.server";
import { createTaskList } from "../../jobs/task-list";
import { makeTestContext } from "../context";
import { useTestDatabase } from "../db";
import { createStoryteller, createUser } from "../factories";
import { sendJson, startFakeApi } from "../fake-http-server";
import { jobsFor, waitForJobsToSettle } from "../jobs";

const database = useTestDatabase();
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const POSTMARK = {
  POSTMARK_SERVER_TOKEN: "server-token",
  MAIL_FROM: "Heirloom <hello@heirloom.example>",
  MAIL_POSTAL_ADDRESS: "1 Test Lane",
  CONTACT_EMAIL: "team@heirloom.example",
};

describe("a worker killed between the provider accepting a prompt and recording it", () => {
  it("is reconciled from the provider's message id: exactly one message is sent", async () => {
    // A Postmark stand-in that takes the message, then never answers: the worker dies waiting.
    const accepted: { To: string; outboxId: string }[] = [];
    let onAccepted: () => void = () => {};
    const api = await startFakeApi((request, res) => {
      const url = new URL(request.url, "http://x");
      if (request.method === "POST" && url.pathname === "/email") {
        const body = JSON.parse(request.body);
        accepted.push({ To: body.To, outboxId: body.Metadata.outbox_id });
        onAccepted();
        return; // no response
      }
      if (request.method === "GET" && url.pathname === "/messages/outbound") {
        const matches = accepted.filter(
          (m) =>
            m.outboxId === url.searchParams.get("metadata_outbox_id") && m.To === url.searchParams.get("recipient"),
        );
        return sendJson(res, 200, {
          TotalCount: matches.length,
          Messages: matches.map((m, i) => ({ MessageID: `pm-${i + 1}`, Recipients: [m.To] })),
        });
      }
      sendJson(res, 404, { ErrorCode: 404, Message: "not here" });
    });
    cleanups.push(api.close);

    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, email: "crash@example.com" });
    await queueSendNow(database.db, storyteller.prompts[0].id);

    const child = spawn(process.execPath, ["--import", "tsx", "tests/support/worker-process.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        DATABASE_URL: database.url,
        POSTMARK_API_URL: api.url,
        APP_URL: "http://localhost:3000",
        ...POSTMARK,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    cleanups.push(() => child.exitCode === null && child.kill("SIGKILL"));
    const acceptedOnce = new Promise<void>((resolve) => (onAccepted = resolve));
    await Promise.race([
      acceptedOnce,
      once(child, "exit").then(() => Promise.reject(new Error("worker exited early"))),
    ]);
    child.kill("SIGKILL");
    await once(child, "exit");

    // The worker died holding the job; what it left behind:
    const [job] = await jobsFor(database.db, "delivery__send");
    expect(job.locked_by).not.toBeNull();
    const stuck = await database.db.selectFrom("deliveries").selectAll().executeTakeFirstOrThrow();
    expect(stuck.status).toBe("sending");

    // graphile-worker's way of saying "that worker is dead"; then a healthy worker runs the job again.
    const utils = await makeWorkerUtils({ pgPool: database.pool });
    await utils.forceUnlockWorkers([job.locked_by!]);
    await utils.release();
    const mail = createPostmarkMail({ ...POSTMARK, POSTMARK_API_URL: api.url });
    await runOnce({ pgPool: database.pool, taskList: createTaskList({ ...makeTestContext(database), mail }) });
    await waitForJobsToSettle(database.db);

    expect(accepted).toHaveLength(1);
    const delivery = await database.db.selectFrom("deliveries").selectAll().executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ status: "sent", provider_message_id: "pm-1" });
    const outbox = await database.db
      .selectFrom("outbox_messages")
      .selectAll()
      .where("id", "=", delivery.outbox_message_id!)
      .executeTakeFirstOrThrow();
    expect(outbox).toMatchObject({ status: "sent", provider_message_id: "pm-1", text_body: "" });
    expect(await jobsFor(database.db, "delivery__send")).toEqual([]);
  });
});
