import { describe, expect, it } from "vitest";
import { coverSpread, interiorPageSize, paddedPageCount, spineWidth } from "./print-geometry";

describe("print geometry", () => {
  it("sizes the spine by the printer's rule: the casewrap table and the paperback formula", () => {
    expect(spineWidth(24, "hardcover")).toBe(0.25);
    expect(spineWidth(84, "hardcover")).toBe(0.25);
    expect(spineWidth(85, "hardcover")).toBe(0.5);
    expect(spineWidth(100, "hardcover")).toBe(0.5);
    expect(spineWidth(400, "hardcover")).toBe(1.1875);
    expect(spineWidth(800, "hardcover")).toBe(2.125);
    expect(spineWidth(100, "paperback")).toBeCloseTo(100 / 444 + 0.06, 10);
    expect(spineWidth(400, "paperback")).toBeCloseTo(0.960901, 5);
    // Below a binding's minimum, or past the most pages, there is no such book.
    expect(spineWidth(22, "hardcover")).toBeNull();
    expect(spineWidth(24, "paperback")).toBeNull();
    expect(spineWidth(801, "hardcover")).toBeNull();
  });

  it("pads the page count to the binding's minimum and to an even number", () => {
    expect(paddedPageCount(3, "hardcover")).toBe(24);
    expect(paddedPageCount(3, "paperback")).toBe(32);
    expect(paddedPageCount(25, "hardcover")).toBe(26);
    expect(paddedPageCount(100, "hardcover")).toBe(100);
  });

  it("adds the bleed to every side of an interior page, in points", () => {
    expect(interiorPageSize("6x9")).toEqual({ width: 450, height: 666 });
    expect(interiorPageSize("8.5x8.5")).toEqual({ width: 630, height: 630 });
  });

  it("lays out the cover spread: a casewrap's wrap and board, a paperback's bleed", () => {
    // Lulu's 6 × 9 in casewrap template: 13.75 in plus the spine, by 10.75 in.
    expect(coverSpread("6x9", "hardcover", 24)).toMatchObject({ width: 14, height: 10.75, spine: 0.25 });
    expect(coverSpread("6x9", "hardcover", 100)).toMatchObject({ width: 14.25, height: 10.75 });
    expect(coverSpread("6x9", "hardcover", 400)).toMatchObject({ width: 13.75 + 1.1875, height: 10.75 });
    const paperback = coverSpread("8.5x8.5", "paperback", 100)!;
    expect(paperback.width).toBeCloseTo(17.25 + 100 / 444 + 0.06, 10);
    expect(paperback.height).toBe(8.75);
    expect(coverSpread("6x9", "paperback", 24)).toBeNull();
  });
});
