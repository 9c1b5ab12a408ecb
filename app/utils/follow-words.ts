// The words follow the voice (decision 037): inside one `[data-words-player]`, the segment being
// spoken is marked (aria-current) and a tap, Enter or Space on a segment plays from its start. Plain
// DOM, so the dashboard (from a React effect) and the standalone share pages (their only script) run
// the same few lines; without JavaScript the words are plain paragraphs.

/** Starts following; returns what stops it. */
export function followWords(root: HTMLElement): () => void {
  const audio = root.querySelector("audio");
  const segments = Array.from(root.querySelectorAll<HTMLElement>("[data-start]"));
  if (!audio || !segments.length) return () => {};
  const starts = segments.map((segment) => Number(segment.dataset.start));
  const ends = segments.map((segment) => Number(segment.dataset.end));
  let current: HTMLElement | null = null;

  for (const segment of segments) {
    segment.setAttribute("role", "button");
    segment.tabIndex = 0;
  }
  const mark = () => {
    const time = audio.currentTime;
    const index = starts.findIndex((start, i) => time >= start && time < Math.max(ends[i], start + 0.25));
    const next = index >= 0 && (time > 0 || !audio.paused) ? segments[index] : null;
    if (next === current) return;
    current?.removeAttribute("aria-current");
    next?.setAttribute("aria-current", "true");
    current = next;
  };
  const playFrom = (target: EventTarget | null) => {
    const segment = (target as HTMLElement | null)?.closest<HTMLElement>("[data-start]");
    if (!segment || !root.contains(segment)) return false;
    audio.currentTime = Number(segment.dataset.start);
    void audio.play().catch(() => {});
    mark();
    return true;
  };
  const onClick = (event: MouseEvent) => void playFrom(event.target);
  const onKey = (event: KeyboardEvent) => {
    if ((event.key === "Enter" || event.key === " ") && playFrom(event.target)) event.preventDefault();
  };
  audio.addEventListener("timeupdate", mark);
  audio.addEventListener("seeked", mark);
  root.addEventListener("click", onClick);
  root.addEventListener("keydown", onKey);
  return () => {
    audio.removeEventListener("timeupdate", mark);
    audio.removeEventListener("seeked", mark);
    root.removeEventListener("click", onClick);
    root.removeEventListener("keydown", onKey);
  };
}
