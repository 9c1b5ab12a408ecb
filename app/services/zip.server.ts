import { makeZip, predictLength } from "client-zip";

/**
 * Zips streamed through client-zip (stored entries, no compression: recordings are compressed
 * already). Entries are pulled one at a time as the reader asks for bytes, so nothing is held
 * whole in memory; with every entry's size known beforehand the archive's length is exact.
 */
export type ZipEntry = {
  name: string;
  lastModified: Date;
  size: number;
  /** Called when the entry's turn comes (so a stored file is opened only then). */
  open: () => Promise<ReadableStream<Uint8Array> | Uint8Array>;
};

/** The exact byte length of the zip `zipStream` makes of these entries. */
export function zipLength(entries: Iterable<Pick<ZipEntry, "name" | "size">>): number {
  return Number(predictLength(Array.from(entries, ({ name, size }) => ({ name, size }))));
}

/** The zip of these entries, read lazily. `onBytes` hears how many bytes of entries went in so far. */
export function zipStream(entries: ZipEntry[], onBytes?: (done: number) => void): ReadableStream<Uint8Array> {
  let done = 0;
  async function* inputs() {
    for (const entry of entries) {
      const opened = await entry.open();
      const counted =
        opened instanceof Uint8Array
          ? opened
          : opened.pipeThrough(
              new TransformStream<Uint8Array, Uint8Array>({
                transform(chunk, controller) {
                  done += chunk.byteLength;
                  onBytes?.(done);
                  controller.enqueue(chunk);
                },
              }),
            );
      if (opened instanceof Uint8Array) {
        done += opened.byteLength;
        onBytes?.(done);
      }
      yield { name: entry.name, lastModified: entry.lastModified, size: entry.size, input: counted };
    }
  }
  return makeZip(inputs());
}
