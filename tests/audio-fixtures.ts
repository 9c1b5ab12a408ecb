/** A WAV file of silence, `seconds` long (8 kHz mono, 8- or 16-bit PCM), built by hand for upload tests. */
export function silentWav(seconds: number, bitsPerSample: 8 | 16 = 8): Buffer {
  const bytesPerSample = bitsPerSample / 8;
  const dataBytes = Math.round(seconds * 8000) * bytesPerSample;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24); // sample rate
  header.writeUInt32LE(8000 * bytesPerSample, 28); // byte rate
  header.writeUInt16LE(bytesPerSample, 32); // block align
  header.writeUInt16LE(bitsPerSample, 34);
  header.write("data", 36);
  header.writeUInt32LE(dataBytes, 40);
  // Silence is 128 for 8-bit (unsigned) and 0 for 16-bit (signed) samples.
  return Buffer.concat([header, Buffer.alloc(dataBytes, bitsPerSample === 8 ? 128 : 0)]);
}
