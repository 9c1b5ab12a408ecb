// The print-ready book's geometry (decision 081): trim sizes, bleed, safe margins, the binding's
// page minimum and the cover spread, with the spine width by the printer's published rule. All
// lengths are inches unless a name says points (1 in = 72 pt, the unit pdfinfo and the printer's
// file check report).
//
// Source: Lulu's Print API help, "How is spine width calculated?" — paperback (perfect bound):
// pages / 444 + 0.06 in; hardcover casewrap: the table below. Casewrap covers are printed larger than
// the book: the board is 0.125 in wider and 0.25 in taller than the trim, and the artwork wraps a
// further 0.75 in around every outer edge of the board (Lulu's "Creating your hardcover casewrap
// cover"; its 6 × 9 in template's total document size is 13.75 in plus the spine by 10.75 in).

/** Each trim's size and its name's key under the keep page's `book.trim` (a key holds no dot). */
export const TRIMS = {
  "6x9": { width: 6, height: 9, label: "sixByNine" },
  "8.5x8.5": { width: 8.5, height: 8.5, label: "square" },
} as const;
export type Trim = keyof typeof TRIMS;
/** The trims in the order the keep page offers them. */
export const TRIM_NAMES = Object.keys(TRIMS) as [Trim, ...Trim[]];
export const BINDINGS = ["hardcover", "paperback"] as const;
export type Binding = (typeof BINDINGS)[number];

/** Printed past the trim on every side of every interior page, and around a paperback's cover. */
export const BLEED = 0.125;
/** Text and codes stay this far inside the trim. */
export const SAFE_MARGIN = 0.5;
/** The binding side's extra margin, so no word disappears into the fold. */
export const GUTTER = 0.25;
/** A casewrap cover's artwork beyond the board, glued inside it. */
export const CASEWRAP_WRAP = 0.75;

/** The fewest interior pages each binding takes. */
export const MIN_PAGES: Record<Binding, number> = { hardcover: 24, paperback: 32 };
/** The most interior pages either binding takes. */
export const MAX_PAGES = 800;

export const points = (inches: number) => inches * 72;

/** The interior's page count after padding: at least the binding's minimum, and even. */
export function paddedPageCount(pages: number, binding: Binding) {
  const atLeast = Math.max(pages, MIN_PAGES[binding]);
  return atLeast % 2 === 0 ? atLeast : atLeast + 1;
}

/** Lulu's casewrap table: each row's last page count and the spine's width in inches. */
export const CASEWRAP_SPINE_TABLE: readonly (readonly [number, number])[] = [
  [84, 0.25],
  [140, 0.5],
  [168, 0.625],
  [194, 0.6875],
  [222, 0.75],
  [250, 0.8125],
  [278, 0.875],
  [306, 0.9375],
  [334, 1],
  [360, 1.0625],
  [388, 1.125],
  [416, 1.1875],
  [444, 1.25],
  [472, 1.3125],
  [500, 1.375],
  [528, 1.4375],
  [556, 1.5],
  [582, 1.5625],
  [610, 1.625],
  [638, 1.6875],
  [666, 1.75],
  [694, 1.8125],
  [722, 1.875],
  [750, 1.9375],
  [778, 2],
  [799, 2.0625],
  [800, 2.125],
];

/** The spine's width in inches for this many interior pages, or null outside the binding's range. */
export function spineWidth(pages: number, binding: Binding): number | null {
  if (!Number.isInteger(pages) || pages < MIN_PAGES[binding] || pages > MAX_PAGES) return null;
  if (binding === "paperback") return pages / 444 + 0.06;
  return CASEWRAP_SPINE_TABLE.find(([last]) => pages <= last)![1];
}

/** One interior page with its bleed, in points. */
export function interiorPageSize(trim: Trim) {
  const { width, height } = TRIMS[trim];
  return { width: points(width + 2 * BLEED), height: points(height + 2 * BLEED) };
}

/**
 * The cover spread (back, spine, front) in inches: `panel` is the width from the outer edge of the
 * file to the spine, `edge` how far outside the trim the artwork runs on each outer side.
 */
export function coverSpread(trim: Trim, binding: Binding, pages: number) {
  const spine = spineWidth(pages, binding);
  if (spine === null) return null;
  const { width, height } = TRIMS[trim];
  // A casewrap board is 0.125 in wider (at the fore-edge) and 0.125 in taller at top and bottom.
  const board = binding === "hardcover" ? { width: width + BLEED, height: height + 2 * BLEED } : { width, height };
  const edge = binding === "hardcover" ? CASEWRAP_WRAP : BLEED;
  const panel = board.width + edge;
  return {
    spine,
    edge,
    panel,
    boardHeight: board.height,
    width: 2 * panel + spine,
    height: board.height + 2 * edge,
  };
}
