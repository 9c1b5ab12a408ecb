import { Logger, runMigrations as runWorkerMigrations } from "graphile-worker";
import { type Kysely, type Migration, Migrator } from "kysely";
import type pg from "pg";
import * as coreTables from "./migrations/0001_core_tables";
import * as authFlows from "./migrations/0002_auth_flows";
import * as emailChanges from "./migrations/0003_email_changes";
import * as promptLibrary from "./migrations/0004_prompt_library";
import * as delivery from "./migrations/0005_delivery";
import * as answers from "./migrations/0006_answers";
import * as answerOwnerEmail from "./migrations/0007_answer_owner_email";
import * as emailOptOuts from "./migrations/0008_email_opt_outs";
import * as authFlowsHashed from "./migrations/0009_auth_flows_hashed";
import * as selfStoryteller from "./migrations/0010_self_storyteller";
import * as groupDrafts from "./migrations/0011_group_drafts";
import * as answerTimelineOrder from "./migrations/0012_answer_timeline_order";
import * as phoneAnswers from "./migrations/0013_phone_answers";
import * as keepsakes from "./migrations/0014_keepsakes";
import * as outboxClaimedBy from "./migrations/0016_outbox_claimed_by";
import * as callOut from "./migrations/0017_call_out";
import * as phoneRecordingsPrompt from "./migrations/0018_phone_recordings_prompt";
import * as transcriptWords from "./migrations/0019_transcript_words";
import * as wordsSearch from "./migrations/0020_words_search";

// Listed by hand (not read from the folder) so the same list works under tsx, vitest and bundlers.
const migrations: Record<string, Migration> = {
  "0001_core_tables": coreTables,
  "0002_auth_flows": authFlows,
  "0003_email_changes": emailChanges,
  "0004_prompt_library": promptLibrary,
  "0005_delivery": delivery,
  "0006_answers": answers,
  "0007_answer_owner_email": answerOwnerEmail,
  "0008_email_opt_outs": emailOptOuts,
  "0009_auth_flows_hashed": authFlowsHashed,
  "0010_self_storyteller": selfStoryteller,
  "0011_group_drafts": groupDrafts,
  "0012_answer_timeline_order": answerTimelineOrder,
  "0013_phone_answers": phoneAnswers,
  "0014_keepsakes": keepsakes,
  "0016_outbox_claimed_by": outboxClaimedBy,
  "0017_call_out": callOut,
  "0018_phone_recordings_prompt": phoneRecordingsPrompt,
  "0019_transcript_words": transcriptWords,
  "0020_words_search": wordsSearch,
};

const quietLogger = new Logger(() => () => {});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function migrator(db: Kysely<any>) {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

/** Brings the app's tables and graphile-worker's schema up to date. Safe to run from several processes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Kysely, whatever its tables
export async function migrateToLatest(db: Kysely<any>, pool: pg.Pool): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  await runWorkerMigrations({ pgPool: pool, logger: quietLogger });
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateDown(db: Kysely<any>): Promise<string | undefined> {
  const { error, results } = await migrator(db).migrateDown();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results?.[0]?.migrationName;
}
