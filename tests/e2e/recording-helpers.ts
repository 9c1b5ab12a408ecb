import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { Page } from "@playwright/test";
import { signCapability } from "../../app/services/tokens.server";
import type { Db } from "../../db/client";
import { createStoryteller, createUser } from "../factories";
import { E2E_DATA_DIR } from "./environment";

/** The record page's journeys: a sent question with its record link, arranged directly in the database. */

const suffix = () => Math.random().toString(36).slice(2, 10);

/** The e2e server signs links with SESSION_SECRET from its data folder (or the environment, which wins). */
export function serverConfig() {
  const { SESSION_SECRET } = JSON.parse(readFileSync(`${E2E_DATA_DIR}/secrets.json`, "utf8")) as {
    SESSION_SECRET: string;
  };
  return { SESSION_SECRET: process.env.SESSION_SECRET ?? SESSION_SECRET };
}

function signRecordToken(promptId: string) {
  return signCapability(serverConfig(), "record", promptId);
}

/**
 * An email Storyteller of `ownerId` ("Nana", no account of their own) with one question that was
 * sent just now, and the record link the email would carry. No next send: nothing else is ever sent.
 */
export async function sentQuestion(db: Db, ownerId: string, text = `What was your first home like? (${suffix()})`) {
  const storyteller = await createStoryteller(db, {
    ownerId,
    nickname: "Nana",
    firstName: "Hari",
    email: `nana.${suffix()}@example.com`,
    timeZone: "America/Chicago",
    prompts: [{ text, sentAt: new Date() }],
  });
  const [prompt] = storyteller.prompts;
  const token = await signRecordToken(prompt.id);
  return { storytellerId: storyteller.id, promptId: prompt.id, text, token, url: `/record/${token}?lng=en` };
}

/**
 * A Storyteller of `ownerId` in `language` with `texts.length` questions all sent just now, each with
 * its record link (the page in that language).
 */
export async function sentQuestions(db: Db, ownerId: string, texts: string[], language: "en" | "hi" = "en") {
  const storyteller = await createStoryteller(db, {
    ownerId,
    nickname: "Nana",
    firstName: "Hari",
    email: `nana.${suffix()}@example.com`,
    timeZone: "Asia/Kolkata",
    language,
    prompts: texts.map((text, i) => ({ text, sentAt: new Date(Date.now() - (texts.length - i) * 1000) })),
  });
  return Promise.all(
    storyteller.prompts.map(async (prompt, i) => {
      const token = await signRecordToken(prompt.id);
      return {
        storytellerId: storyteller.id,
        promptId: prompt.id,
        text: texts[i],
        token,
        url: `/record/${token}?lng=${language}`,
      };
    }),
  );
}

/** A user row to own a Storyteller when nobody needs to sign in as them. */
export async function newOwner(db: Db, firstName = "Asha") {
  const id = suffix();
  return createUser(db, {
    email: `${firstName.toLowerCase()}.${id}@example.com`,
    first_name: firstName,
    last_name: "Test",
    nickname: `${firstName.toLowerCase()}${id}`.slice(0, 30),
  });
}

export const answersFor = (db: Db, promptId: string) =>
  db
    .selectFrom("answers")
    .select(["id", "content_type", "is_private", "duration_ms", "byte_size", "upload_id", "storage_key"])
    .where("prompt_id", "=", promptId)
    .execute();

export const notificationTypes = async (db: Db, userId: string, promptId: string) =>
  (
    await db
      .selectFrom("notifications")
      .select("type")
      .where("user_id", "=", userId)
      .where("prompt_id", "=", promptId)
      .orderBy("created_at")
      .execute()
  ).map((n) => n.type);

/** Changes one character in the middle of the JWT's signature (the last character may only carry padding bits). */
export function tamper(token: string) {
  const at = token.length - 10;
  const replacement = token[at] === "A" ? "B" : "A";
  return token.slice(0, at) + replacement + token.slice(at + 1);
}

/** Paths of every script the page requests from now on (any origin). */
export function collectScriptRequests(page: Page) {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  return scripts;
}

/** The recorder's IndexedDB record for this link (see app/recorder/recorder.ts), summarised; null when there is none. */
export function savedRecording(page: Page, token: string) {
  return page.evaluate(
    (key) =>
      new Promise<{ chunks: number; finished: boolean; mimeType: string } | null>((resolve, reject) => {
        const open = indexedDB.open("heirloom-recorder", 1);
        open.onupgradeneeded = () => open.result.createObjectStore("recordings", { keyPath: "key" });
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction("recordings", "readonly").objectStore("recordings").get(key);
          get.onerror = () => reject(get.error);
          get.onsuccess = () => {
            const saved = get.result as { chunks: Blob[]; finished: boolean; mimeType: string } | undefined;
            open.result.close();
            resolve(saved ? { chunks: saved.chunks.length, finished: saved.finished, mimeType: saved.mimeType } : null);
          };
        };
      }),
    token,
  );
}

export { silentWav as wav } from "../audio-fixtures";

/** The files stored for a question's answers (local storage: DATA_DIR/files/answers/{promptId}). */
export const storedFiles = (promptId: string) =>
  readdir(path.join(E2E_DATA_DIR, "files", "answers", promptId)).catch(() => [] as string[]);
