// A worker in its own process, for fault tests that kill it mid-job (tests/integration/*-crash.test.ts).
// Reads DATABASE_URL and the provider variables from its environment, like server/main.ts.
import { run } from "graphile-worker";
import { completeConfig, parseEnv } from "~/config.server";
import { createMailService } from "~/services/mail.server";
import { createSmsService } from "~/services/sms.server";
import { createStorageService } from "~/services/storage.server";
import { createWhatsAppService } from "~/services/whatsapp.server";
import { createDb, createPool } from "../../db/client";
import { createTaskList } from "../../jobs/task-list";
import { TEST_SESSION_SECRET } from "../context";

const config = completeConfig(parseEnv(process.env), { SESSION_SECRET: TEST_SESSION_SECRET });
const pool = createPool(process.env.DATABASE_URL!, 2);
const storage = createStorageService(config);
const runner = await run({
  pgPool: pool,
  taskList: createTaskList({
    db: createDb(pool),
    config,
    storage,
    whatsapp: createWhatsAppService(config, storage),
    mail: createMailService(config),
    sms: createSmsService(config),
  }),
  concurrency: 1,
  noHandleSignals: true,
  pollInterval: 100,
});
console.log("worker ready");
await runner.promise;
