// After `react-router build`: writes .br (quality 11) and .gz (level 9) beside every hashed asset, so
// the server sends the smallest encoding the browser accepts without compressing on each request.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dir = "build/client/assets";
let files = 0;
for (const name of readdirSync(dir)) {
  if (!/\.(js|css|svg|json)$/.test(name)) continue;
  const source = readFileSync(path.join(dir, name));
  writeFileSync(
    path.join(dir, `${name}.br`),
    brotliCompressSync(source, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
    }),
  );
  writeFileSync(path.join(dir, `${name}.gz`), gzipSync(source, { level: 9 }));
  files++;
}
console.log(`precompressed ${files} assets (br, gz)`);
