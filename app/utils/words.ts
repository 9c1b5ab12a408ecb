// An answer's words as the family sees them (decision 037): cut into paragraphs for reading, written as
// WebVTT captions for players, and checked when the family corrects them. Pure, so the pages, the
// captions route and the export all cut and write the words alike.

import { formatLength } from "./intl-formats";

export type Segment = { start: number; end: number; text: string };

/** The longest correction we keep: five minutes of speech is about 1,000 words. */
export const MAX_TRANSCRIPT_CHARS = 20_000;
export const MAX_SEGMENT_CHARS = 2_000;

/** A silence this long (seconds), or this many segments, starts a new paragraph when reading without the voice. */
const PARAGRAPH_PAUSE = 2;
const PARAGRAPH_SEGMENTS = 6;

/** Segments a page may trust: numbers in order, text present (jsonb from the engine is checked, not assumed). */
export function cleanSegments(value: unknown): Segment[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const { start, end, text } = (item ?? {}) as Partial<Segment>;
    if (typeof start !== "number" || typeof end !== "number" || typeof text !== "string") return [];
    if (!Number.isFinite(start) || !Number.isFinite(end) || start < 0) return [];
    return [{ start, end: Math.max(start, end), text }];
  });
}

/** Segments grouped into paragraphs: at a long pause, or every few segments. */
export function paragraphsOf(segments: Segment[]): Segment[][] {
  const paragraphs: Segment[][] = [];
  let current: Segment[] = [];
  for (const segment of segments) {
    const previous = current.at(-1);
    if (previous && (segment.start - previous.end >= PARAGRAPH_PAUSE || current.length >= PARAGRAPH_SEGMENTS)) {
      paragraphs.push(current);
      current = [];
    }
    if (segment.text.trim()) current.push(segment);
  }
  if (current.length) paragraphs.push(current);
  return paragraphs;
}

/** Words without timings as paragraphs: the blank lines the family typed, else one paragraph. */
export function paragraphsOfText(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

function vttTime(seconds: number): string {
  const ms = Math.round(Math.max(0, seconds) * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/**
 * WebVTT captions of the segments. A cue's text may not hold "-->" nor a blank line, and "<" and "&"
 * start markup in a cue, so they are escaped; a cue that would end before it starts lasts a moment.
 */
export function toWebVtt(segments: Segment[]): string {
  const cues = segments
    .filter((segment) => segment.text.trim())
    .map((segment, index) => {
      const end = segment.end > segment.start ? segment.end : segment.start + 0.5;
      const text = segment.text
        .trim()
        .replace(/\s*\n\s*/g, " ")
        .replace(/&/g, "&amp;")
        .replace(/</g, "&lt;")
        .replace(/>/g, "&gt;");
      return `${index + 1}\n${vttTime(segment.start)} --> ${vttTime(end)}\n${text}`;
    });
  return ["WEBVTT", ...cues].join("\n\n") + "\n";
}

/** Whitespace made single spaces: the words of one segment, as the contract keeps them. */
export const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** "1:05": where a segment starts, for a link or a label. */
export const clockOf = (seconds: number): string => formatLength(seconds);

export type WordsStatus = "pending" | "waiting" | "done" | "none" | "failed";

/** An answer's words as a page shows them (app/components/answer-words.tsx). */
export type WordsView = {
  status: WordsStatus;
  transcript: string | null;
  segments: Segment[];
  /** Corrected by the family: who (null once their account is gone) and the day, in the page's language. */
  corrected: { by: string | null; on: string } | null;
  /** Newer machine words wait beside the family's correction. */
  heardAgain: boolean;
  /** What she wrote beside her recording (a reply by email), as she wrote it. */
  written?: string | null;
};
