#!/usr/bin/env node
// Writes .br and .gz beside every compressible file of the web build. The API serves them with
// @fastify/static's preCompressed option, so no request pays for compression at run time.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt', '.map', '.webmanifest']);
const dist = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

function* walk(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

let count = 0;
let raw = 0;
let brotli = 0;
for (const path of walk(dist)) {
  if (!COMPRESSIBLE.has(extname(path)) || /[\\/]\.(vite|server)[\\/]/.test(path)) continue;
  const source = readFileSync(path);
  if (source.length < 512) continue;
  const br = brotliCompressSync(source, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
  });
  writeFileSync(`${path}.br`, br);
  writeFileSync(`${path}.gz`, gzipSync(source, { level: 9 }));
  count += 1;
  raw += source.length;
  brotli += br.length;
}
console.info(
  `precompressed ${count} files: ${(raw / 1024).toFixed(0)} KB → ${(brotli / 1024).toFixed(0)} KB brotli`,
);
