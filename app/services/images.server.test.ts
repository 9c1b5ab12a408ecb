import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPhoto, heicDecodes, MAX_PHOTO_BYTES, photoResponse } from "./images.server";
import { createLocalStorage, type StorageService } from "./storage.server";

const HEIC_DECODES = await heicDecodes();
const RED = { r: 220, g: 20, b: 20 };
const BLUE = { r: 20, g: 20, b: 220 };

/** A landscape picture, red on its left half and blue on its right, with nothing written in it. */
async function redLeftBlueRight(width: number, height: number) {
  const blue = await sharp({ create: { width: width / 2, height, channels: 3, background: BLUE } })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: RED } }).composite([
    { input: blue, left: width / 2, top: 0 },
  ]);
}

/**
 * A phone photo: 1600×800 as the sensor stored it, EXIF orientation 6 ("turn 90° clockwise to view"),
 * the camera's make and model, where it was taken (GPS, in New York), and an XMP packet naming the place.
 */
async function phonePhoto() {
  const image = await redLeftBlueRight(1600, 800);
  return image
    .jpeg({ quality: 90 })
    .withMetadata({
      orientation: 6,
      exif: {
        IFD0: { Make: "PhoneCo", Model: "Pocket 9", DateTime: "2024:05:01 10:30:00" },
        IFD3: {
          GPSLatitudeRef: "N",
          GPSLatitude: "40/1 42/1 46/1",
          GPSLongitudeRef: "W",
          GPSLongitude: "74/1 0/1 21/1",
        },
      },
    })
    .withXmp(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:City="Brooklyn"/></rdf:RDF></x:xmpmeta>',
    )
    .toBuffer();
}

/** The tag numbers in an EXIF block's first directory (0x0112 Orientation, 0x8825 the GPS directory). */
function exifDirectoryTags(exif: Buffer) {
  const tiff = exif.subarray(exif.indexOf("II*\0") >= 0 ? exif.indexOf("II*\0") : exif.indexOf("MM\0*"));
  const little = tiff.toString("latin1", 0, 2) === "II";
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const first = little ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
  return Array.from({ length: u16(first) }, (_, i) => u16(first + 2 + i * 12));
}

const asFile = (bytes: Uint8Array, name: string, type = "") => new File([Buffer.from(bytes)], name, { type });

/** The mean colour of a strip of an image: which way up it is. */
async function meanColour(image: Uint8Array, region: { left: number; top: number; width: number; height: number }) {
  const strip = await sharp(image).extract(region).png().toBuffer(); // stats() reads its input, not the pipeline
  const { channels } = await sharp(strip).stats();
  return { r: Math.round(channels[0].mean), g: Math.round(channels[1].mean), b: Math.round(channels[2].mean) };
}

const dominant = ({ r, b }: { r: number; b: number }) =>
  r > 180 && b < 60 ? "red" : b > 180 && r < 60 ? "blue" : "mixed";

async function accepted(file: File) {
  const result = await checkPhoto(file);
  if (!result.ok) throw new Error(`refused: ${result.error}`);
  return result;
}

describe("a profile photo", () => {
  it("is stored upright, within 512×512, as a JPEG without the camera's location, make or date", async () => {
    const original = await phonePhoto();
    const before = await sharp(original).metadata();
    expect(before).toMatchObject({ format: "jpeg", width: 1600, height: 800, orientation: 6 });
    expect(exifDirectoryTags(before.exif!)).toEqual(expect.arrayContaining([0x0112, 0x8825])); // the fixture does carry GPS
    expect(original.includes("PhoneCo")).toBe(true);
    expect(before.xmpAsString).toContain("Brooklyn");

    const photo = await accepted(asFile(original, "IMG_0042.jpg", "image/jpeg"));
    expect(photo).toMatchObject({ contentType: "image/jpeg", extension: "jpg" });
    const after = await sharp(photo.bytes).metadata();
    expect(after).toMatchObject({ format: "jpeg", width: 256, height: 512, hasProfile: false });
    for (const block of ["exif", "xmp", "iptc", "icc", "orientation"] as const) expect(after[block]).toBeUndefined();
    for (const text of ["Exif", "PhoneCo", "Pocket 9", "2024:05:01", "Brooklyn", "xmpmeta"])
      expect(Buffer.from(photo.bytes).includes(text)).toBe(false);

    // Turned a quarter clockwise: the sensor's left (red) is now the top, its right (blue) the bottom.
    expect(dominant(await meanColour(photo.bytes, { left: 0, top: 0, width: 256, height: 200 }))).toBe("red");
    expect(dominant(await meanColour(photo.bytes, { left: 0, top: 312, width: 256, height: 200 }))).toBe("blue");
  });

  it("keeps a small picture its size (no upscaling) and puts transparency on white", async () => {
    const png = await sharp({
      create: { width: 120, height: 80, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const photo = await accepted(asFile(png, "clear.png"));
    expect(await sharp(photo.bytes).metadata()).toMatchObject({
      format: "jpeg",
      width: 120,
      height: 80,
      hasAlpha: false,
    });
    expect(await meanColour(photo.bytes, { left: 0, top: 0, width: 120, height: 80 })).toEqual({
      r: 255,
      g: 255,
      b: 255,
    });
  });

  it("accepts WebP, and keeps the first frame of an animated GIF", async () => {
    const webp = await (await redLeftBlueRight(1000, 600)).webp().toBuffer();
    expect(await sharp((await accepted(asFile(webp, "a.webp"))).bytes).metadata()).toMatchObject({
      format: "jpeg",
      width: 512,
      height: 307,
    });

    // Two 40×40 frames: red, then blue.
    const frames = Buffer.concat([
      Buffer.alloc(40 * 40 * 3, Buffer.from([RED.r, RED.g, RED.b])),
      Buffer.alloc(40 * 40 * 3, Buffer.from([BLUE.r, BLUE.g, BLUE.b])),
    ]);
    const gif = await sharp(frames, { raw: { width: 40, height: 80, channels: 3, pageHeight: 40 } })
      .gif()
      .toBuffer();
    expect(await sharp(gif).metadata()).toMatchObject({ format: "gif", pages: 2 });
    const photo = await accepted(asFile(gif, "wave.gif"));
    expect(await sharp(photo.bytes).metadata()).toMatchObject({ format: "jpeg", width: 40, height: 40 });
    expect(dominant(await meanColour(photo.bytes, { left: 0, top: 0, width: 40, height: 40 }))).toBe("red");
  });

  it("refuses a file over 5 MB before looking at it", async () => {
    const big = new Uint8Array(MAX_PHOTO_BYTES + 1);
    big.set(await phonePhoto());
    expect(await checkPhoto(asFile(big, "big.jpg", "image/jpeg"))).toEqual({ ok: false, error: "tooLarge" });
  });

  it("calls a file that starts like an image but does not decode 'not an image'", async () => {
    const jpeg = await phonePhoto();
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 3));
    const garbage = Buffer.concat([jpeg.subarray(0, 4), Buffer.alloc(20_000, 0x5a)]);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: RED } })
      .png()
      .toBuffer();
    const brokenPng = Buffer.concat([png.subarray(0, 40), Buffer.alloc(500, 0x00)]);
    for (const bytes of [truncated, garbage, brokenPng])
      expect(await checkPhoto(asFile(bytes, "photo.jpg", "image/jpeg"))).toEqual({ ok: false, error: "notAnImage" });
  });

  it("refuses what is not a picture, whatever its name", async () => {
    const html = new TextEncoder().encode("<!doctype html><script>alert(1)</script>");
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    for (const [bytes, name] of [
      [html, "cute.png"],
      [svg, "logo.svg"],
    ] as const)
      expect(await checkPhoto(asFile(bytes, name, "image/png"))).toEqual({ ok: false, error: "notAnImage" });
  });

  // sharp's prebuilt libheif decodes AV1 only; HEIC (HEVC) needs a libvips built with libde265.
  it.skipIf(HEIC_DECODES)("refuses HEIC with the 'not an image' message where sharp cannot decode it", async () => {
    const heic = Buffer.concat([
      Buffer.from([0, 0, 0, 24]),
      Buffer.from("ftypheic\0\0\0\0mif1heic", "latin1"),
      Buffer.alloc(2_000),
    ]);
    expect(await checkPhoto(asFile(heic, "IMG_0001.HEIC", "image/heic"))).toEqual({ ok: false, error: "notAnImage" });
  });
});

describe("serving a stored photo", () => {
  let root: string;
  let storage: StorageService;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "heirloom-photos-"));
    storage = createLocalStorage(root);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("names the stored JPEG's type, and still serves photos stored as PNG or GIF before re-encoding", async () => {
    const photo = await accepted(asFile(await phonePhoto(), "me.jpg"));
    await storage.put("profile/u/new.jpg", photo.bytes, photo.contentType);
    const response = await photoResponse(storage, "profile/u/new.jpg", { "Cache-Control": "private" });
    expect(response.headers.get("Content-Type")).toBe("image/jpeg");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(photo.bytes))).toBe(true);

    await storage.put("profile/u/old.png", Buffer.from("png bytes"), "image/png");
    expect((await photoResponse(storage, "profile/u/old.png", {})).headers.get("Content-Type")).toBe("image/png");
    expect(
      ((await photoResponse(storage, "profile/u/none.jpg", {}).catch((e: Response) => e)) as Response).status,
    ).toBe(404);
  });
});
