// The recorder of the record page and of My Stories: plain browser code (no React), bundled by
// scripts/build-standalone.mjs. It enhances the page's file form. The recording is kept in IndexedDB
// from the first second until the server confirms it, and goes up with tus so a bad connection
// resumes instead of starting over.
import { Upload } from "tus-js-client";
import { formatLength } from "../utils/intl-formats";

const MAX_MS = 5 * 60_000;
/** Seconds left at which the countdown is said aloud to screen readers (it is not read every second). */
const ANNOUNCE_AT = [240, 180, 120, 60, 30, 10];
// Opus at 28 kbps mono (5 minutes ≈ 1 MB); Safari records AAC, with its bitrate set explicitly.
const FORMATS: [mimeType: string, bitsPerSecond: number][] = [
  ["audio/webm;codecs=opus", 28_000],
  ["audio/ogg;codecs=opus", 28_000],
  ["audio/mp4;codecs=mp4a.40.2", 64_000],
  ["audio/mp4", 64_000],
];

type Text = Record<string, string>;
type Saved = { key: string; mimeType: string; chunks: Blob[]; durationMs: number; savedAt: number; finished: boolean };

function start(root: HTMLElement, mount: HTMLElement, text: Text) {
  // What the upload answers: the record link's token (in the address), or, on My Stories, a prompt
  // of the signed-in user's (data-upload-prompt; the server checks it against the session).
  const promptId = root.dataset.uploadPrompt;
  const token = promptId ? "" : decodeURIComponent(location.pathname.split("/")[2] ?? "");
  const key = promptId ? `prompt-${promptId}` : token;
  const target: Record<string, string> = promptId ? { prompt: promptId } : { token };
  const form = document.getElementById("answer-form") as HTMLFormElement;
  const say = (key: string, values: Record<string, string | number> = {}) =>
    (text[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));

  // The question was opened: a POST, because opening a link (mail scanners do) must change nothing.
  // (`.data` asks React Router for the action's data alone, as its own fetchers do, not the whole page.)
  void fetch(`${location.pathname}.data`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "intent=opened",
    keepalive: true,
  })
    .then((response) => response.body?.cancel())
    .catch(() => {});

  const ui = buildUi(mount, say);
  mount.hidden = false;
  // The file form stays, folded behind "Or upload a recording": by CSS where the browser knows
  // `scripting`, by `hidden` here for the ones that do not (decision 039).
  const fileParts = ["#file-field", "[data-file-submit]", "[data-file-steps]"]
    .map((selector) => form.querySelector<HTMLElement>(selector))
    .filter((element): element is HTMLElement => element !== null);
  let fileToggle = form.querySelector<HTMLElement>("[data-upload-toggle]");
  if (!fileToggle) {
    fileToggle = button(say("uploadInstead"), "btn-secondary self-start");
    form.prepend(fileToggle);
  }
  fileToggle.setAttribute("role", "button");
  const toggle = fileToggle;
  const openFileForm = () => {
    form.setAttribute("data-upload-open", "");
    fileParts.forEach((part) => (part.hidden = false));
    toggle.hidden = true;
  };
  if (!form.hasAttribute("data-upload-open")) fileParts.forEach((part) => (part.hidden = true));
  // Only in the first state: while recording, reviewing or sending, the way on is the recorder's.
  const offerFileForm = (offer: boolean) => (toggle.hidden = !offer || form.hasAttribute("data-upload-open"));
  toggle.addEventListener("click", (event) => {
    event.preventDefault();
    openFileForm();
  });

  let recording: Blob | null = null;
  /** When the current recording was started: tells two recordings of the same size apart. */
  let recordingId = 0;
  let uploading = false;
  const unsent = () => recording !== null && !uploading;

  const problem = recorderProblem();
  if (problem) {
    ui.cannotRecord(say(problem));
    openFileForm();
  } else ui.ready();

  void loadSaved(key).then((saved) => {
    if (!saved || !saved.chunks.length) return;
    recording = new Blob(saved.chunks, { type: saved.mimeType });
    recordingId = saved.savedAt;
    ui.review(recording, true);
    offerFileForm(false);
  });

  let recorder: MediaRecorder | null = null;
  let stopTimer = () => {};
  ui.recordButton.addEventListener("click", async () => {
    if (recorder?.state === "recording") return recorder.stop();
    if (recording && !window.confirm(say("rerecordConfirm"))) return;
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true },
      });
      // No destructuring here: esbuild cannot lower it for Safari 13, whose destructuring is buggy.
      const format = FORMATS.find((candidate) => MediaRecorder.isTypeSupported(candidate[0])) ?? ["", 64_000];
      const mimeType = format[0];
      const audioBitsPerSecond = format[1];
      recorder = new MediaRecorder(stream, mimeType ? { mimeType, audioBitsPerSecond } : { audioBitsPerSecond });
      const saved: Saved = {
        key,
        mimeType: recorder.mimeType || mimeType,
        chunks: [],
        durationMs: 0,
        savedAt: Date.now(),
        finished: false,
      };
      const startedAt = Date.now();
      recorder.addEventListener("dataavailable", (event) => {
        if (!event.data.size) return;
        saved.chunks.push(event.data);
        saved.durationMs = Date.now() - startedAt;
        void save(saved); // every second: a crash or a closed tab loses at most that
      });
      recorder.addEventListener("stop", () => {
        stream.getTracks().forEach((track) => track.stop());
        stopTimer();
        saved.finished = true;
        void save(saved);
        recording = new Blob(saved.chunks, { type: saved.mimeType });
        recordingId = saved.savedAt;
        ui.review(recording, false);
      });
      recorder.start(1000);
      ui.recording();
      offerFileForm(false);
      stopTimer = countdown(ui.timer, ui.announcer, say, () => {
        ui.showMessage(say("autoStopped"));
        recorder?.stop();
      });
    } catch (error) {
      const name = (error as DOMException).name;
      ui.showMessage(
        say(
          name === "NotAllowedError" || name === "SecurityError"
            ? "micDenied"
            : name === "NotFoundError"
              ? "micMissing"
              : "unsupported",
        ),
      );
    }
  });

  /** Sends the recording; once the server has it, goes to `then` (by default, this page saying so). */
  const submit = (then?: string) => {
    if (!recording) return;
    uploading = true;
    ui.uploading(0);
    const blob = recording;
    const isPrivate = (form.elements.namedItem("private") as HTMLInputElement | null)?.checked ?? false;
    const upload = new Upload(blob, {
      endpoint: "/uploads",
      chunkSize: 256 * 1024,
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000, 30000],
      metadata: { ...target, private: isPrivate ? "1" : "0", filetype: blob.type },
      // Resume only this very recording with this very choice; anything else starts a new upload.
      fingerprint: async () => `heirloom-${key}-${recordingId}-${blob.size}-${isPrivate ? 1 : 0}`,
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => ui.uploading(Math.floor((sent / total) * 100)),
      onSuccess: async () => {
        // The server answered only after storing and checking the file: now it may leave the phone.
        await forget(key);
        recording = null;
        ui.sent();
        location.replace(
          then ??
            `${location.pathname}?submitted=1${location.search.includes("lng=") ? `&${location.search.slice(1)}` : ""}`,
        );
      },
      onError: (error) => {
        uploading = false;
        const body = (error as { originalResponse?: { getBody(): string } | null }).originalResponse?.getBody() ?? "";
        const reason = /^(upload\.\w+)$/.test(body.trim()) ? say(body.trim()) : say("failedDetail");
        ui.failed(reason, blob);
      },
    });
    void upload.findPreviousUploads().then((previous) => {
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    });
  };
  ui.submitButton.addEventListener("click", () => submit());
  ui.retryButton.addEventListener("click", () => submit());
  ui.rerecordButton.addEventListener("click", () => ui.recordButton.click());
  ui.discardButton.addEventListener("click", async () => {
    if (!window.confirm(say("discardConfirm"))) return;
    await forget(key);
    recording = null;
    ui.ready();
    offerFileForm(true);
  });

  // Leaving with a recording that is not sent: warn, and offer to send it first.
  window.addEventListener("beforeunload", (event) => {
    if (!leaving && (unsent() || recorder?.state === "recording")) event.preventDefault();
  });
  let leaving = false;
  root.querySelectorAll<HTMLAnchorElement>("[data-leave-check]").forEach((link) =>
    link.addEventListener("click", (event) => {
      if (!unsent()) return;
      event.preventDefault();
      ui.leaveWarning(
        link.href,
        () => submit(link.href),
        () => (leaving = true),
      );
    }),
  );
}

/** Why this browser can't record here, if it can't: in-app browsers and old browsers get the upload form. */
function recorderProblem(): string | null {
  if (/FBAN|FBAV|Instagram|Line\/|Twitter|; wv\)/.test(navigator.userAgent)) return "inAppBrowser";
  if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") return "unsupported";
  return null;
}

/** Shows the time left four times a second; says it in `announcer` (a live region) at ANNOUNCE_AT. */
function countdown(
  timer: HTMLElement,
  announcer: HTMLElement,
  say: (key: string, values?: Record<string, string | number>) => string,
  done: () => void,
) {
  const startedAt = Date.now();
  let announced = 0;
  const tick = () => {
    const left = Math.max(0, MAX_MS - (Date.now() - startedAt));
    const seconds = Math.ceil(left / 1000);
    timer.textContent = say("timeLeft", {
      time: formatLength(seconds),
    });
    if (ANNOUNCE_AT.includes(seconds) && seconds !== announced) {
      announced = seconds;
      announcer.textContent =
        seconds === 60
          ? say("announceOneMinute")
          : say(seconds > 60 ? "announceMinutes" : "announceSeconds", {
              time: seconds > 60 ? seconds / 60 : seconds,
            });
    }
    if (left === 0) done();
  };
  tick();
  const interval = setInterval(tick, 250);
  return () => clearInterval(interval);
}

function button(label: string, className: string) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = className;
  element.textContent = label;
  return element;
}

/** The element the page rendered for the recorder's first state, or a new one for pages that did not. */
function adopt<T extends HTMLElement>(mount: HTMLElement, selector: string, make: () => T): T {
  const found = mount.querySelector<T>(selector);
  if (found) return found;
  const made = make();
  mount.append(made);
  return made;
}

/**
 * The recorder as a state machine a person can read (decision 039): each state has a status line in
 * words and one primary button. Ready: Record. Recording: Stop, with the time left. Recorded: Send
 * this answer (Listen and Record again beside it). Sending: the progress. Failed: Try again.
 */
function buildUi(mount: HTMLElement, say: (key: string, values?: Record<string, string | number>) => string) {
  mount.className = "flex flex-col gap-4";
  const status = adopt(mount, "[data-recorder-status]", () => {
    const element = document.createElement("p");
    element.className = "text-2xl font-semibold";
    element.setAttribute("role", "status");
    return element;
  });
  const timer = adopt(mount, "[data-recorder-timer]", () => {
    const element = document.createElement("p");
    element.className = "text-3xl font-bold tabular-nums";
    // A timer is not read out as it changes; the announcer says the time left now and then.
    element.setAttribute("role", "timer");
    return element;
  });
  const recordButton = adopt(mount, "[data-recorder-record]", () =>
    button(say("record"), "btn-primary px-8 py-5 text-2xl"),
  );
  recordButton.disabled = false;
  const announcer = document.createElement("p");
  announcer.className = "sr-only";
  announcer.setAttribute("aria-live", "polite");
  const review = document.createElement("div");
  review.className = "flex flex-col gap-3";
  review.hidden = true;
  const reviewLabel = document.createElement("p");
  reviewLabel.className = "font-semibold";
  const audio = document.createElement("audio");
  audio.controls = true;
  audio.className = "w-full";
  audio.setAttribute("aria-label", say("listen"));
  const submitButton = button(say("submit"), "btn-primary px-8 py-5 text-2xl");
  const rerecordButton = button(say("rerecord"), "btn-secondary self-start px-5 py-3");
  const discardButton = button(say("discard"), "btn-secondary self-start px-5 py-3");
  const actions = document.createElement("div");
  actions.className = "flex flex-col gap-4";
  actions.append(submitButton, rerecordButton, discardButton);
  review.append(reviewLabel, audio, actions);
  const progress = document.createElement("progress");
  progress.max = 100;
  progress.className = "h-4 w-full";
  progress.hidden = true;
  const failure = document.createElement("div");
  failure.className = "flex flex-col gap-3 rounded-lg border border-danger p-3";
  failure.hidden = true;
  failure.setAttribute("role", "alert");
  const failureText = document.createElement("p");
  const retryButton = button(say("retry"), "btn-primary px-8 py-5 text-2xl");
  const download = document.createElement("a");
  download.className = "inline-flex min-h-11 items-center underline";
  download.textContent = say("download");
  failure.append(failureText, retryButton, download);
  const leave = document.createElement("div");
  leave.className = "flex flex-col gap-3 rounded-lg border border-line p-3";
  leave.hidden = true;
  mount.append(announcer, progress, failure, review, leave);

  /** Shows only the parts of one state. */
  const show = (...parts: HTMLElement[]) => {
    for (const part of [timer, recordButton, review, progress, failure]) part.hidden = !parts.includes(part);
  };
  let audioUrl = "";
  return {
    timer,
    announcer,
    recordButton,
    submitButton,
    rerecordButton,
    retryButton,
    discardButton,
    showMessage(message: string) {
      status.textContent = message;
    },
    ready() {
      show(timer, recordButton);
      recordButton.textContent = say("record");
      recordButton.removeAttribute("aria-pressed");
      status.textContent = say("ready");
      announcer.textContent = "";
      timer.textContent = say("timeLeft", { time: "5:00" });
    },
    cannotRecord(message: string) {
      show();
      status.textContent = message;
    },
    recording() {
      show(timer, recordButton);
      recordButton.textContent = say("stop");
      recordButton.setAttribute("aria-pressed", "true");
      status.textContent = say("recording");
    },
    review(blob: Blob, fromEarlierVisit: boolean) {
      if (audioUrl) URL.revokeObjectURL(audioUrl);
      audioUrl = URL.createObjectURL(blob);
      audio.src = audioUrl;
      show(review);
      recordButton.textContent = say("record");
      recordButton.removeAttribute("aria-pressed");
      submitButton.hidden = false;
      // The 5:00 stop keeps its reason in the status line; the next step is then the same.
      status.textContent =
        (status.textContent === say("autoStopped") ? `${say("autoStopped")} ` : "") +
        say(fromEarlierVisit ? "unsentStatus" : "recorded");
      reviewLabel.textContent = fromEarlierVisit ? say("unsent") : say("listen");
      submitButton.textContent = fromEarlierVisit ? say("sendUnsent") : say("submit");
      discardButton.hidden = !fromEarlierVisit;
    },
    uploading(percent: number) {
      show(progress);
      progress.value = percent;
      status.textContent = say("sending", { percent });
    },
    failed(reason: string, blob: Blob) {
      show(failure, review);
      submitButton.hidden = true; // Try again is this state's one primary action
      failureText.textContent = `${say("failed")}: ${reason}`;
      download.href = audioUrl || URL.createObjectURL(blob);
      download.download = `answer.${blob.type.includes("mp4") ? "m4a" : blob.type.includes("ogg") ? "ogg" : "webm"}`;
      status.textContent = say("failed");
    },
    sent() {
      show();
      status.textContent = say("submitted");
    },
    leaveWarning(href: string, saveAndGo: () => void, leaveAnyway: () => void) {
      leave.replaceChildren();
      const message = document.createElement("p");
      message.textContent = say("leaveWarning");
      const go = button(say("saveAndGo"), "btn-primary px-5 py-3");
      go.addEventListener("click", saveAndGo);
      const away = document.createElement("a");
      away.href = href;
      away.className = "inline-flex min-h-11 items-center underline";
      away.textContent = say("leaveAnyway");
      away.addEventListener("click", leaveAnyway);
      leave.append(message, go, away);
      leave.hidden = false;
      go.focus();
    },
  };
}

// IndexedDB: one record per question, rewritten as chunks arrive.
const DB_NAME = "heirloom-recorder";
function database(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore("recordings", { keyPath: "key" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}
async function withStore<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T | undefined> {
  try {
    const db = await database();
    return await new Promise<T>((resolve, reject) => {
      const request = work(db.transaction("recordings", mode).objectStore("recordings"));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  } catch {
    return undefined; // private browsing without storage: the recording lives in memory only
  }
}
function save(saved: Saved) {
  return withStore("readwrite", (store) => store.put(saved));
}
function loadSaved(key: string) {
  return withStore<Saved | undefined>("readonly", (store) => store.get(key) as IDBRequest<Saved | undefined>);
}
function forget(key: string) {
  return withStore("readwrite", (store) => store.delete(key));
}

// Last, so every constant above is initialised before the recorder starts.
const recorderRoot = document.querySelector<HTMLElement>("[data-recorder-root]");
const recorderMount = document.getElementById("recorder");
const recorderText = document.getElementById("recorder-text");
// After the first paint: the question shows before the recorder's work (its Record button waits
// disabled in the HTML until then).
if (recorderRoot && recorderMount && recorderText)
  requestAnimationFrame(() =>
    setTimeout(() => start(recorderRoot, recorderMount, JSON.parse(recorderText.textContent ?? "{}") as Text)),
  );
