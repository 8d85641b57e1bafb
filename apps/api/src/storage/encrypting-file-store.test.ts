import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/client.ts';
import { attachKeyring } from '../encryption/keyring.ts';
import { CHUNK_BYTES, createEncryptingFileStore, type EncryptingFileStore } from './encrypting-file-store.ts';
import { createDiskFileStore, type FileStore } from './file-store.ts';

let database: Database;
let root: string;
let disk: FileStore;
let store: EncryptingFileStore;

beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite' });
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-enc-store-'));
  disk = createDiskFileStore(root);
  store = createEncryptingFileStore(disk, attachKeyring(database, randomBytes(32)));
});
afterAll(async () => {
  await database.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const storedPath = (key: string) => path.join(root, key.slice(0, 2), key);

async function put(content: Buffer): Promise<string> {
  const temporary = await store.temporaryPath();
  fs.writeFileSync(temporary, content);
  const key = await store.commit(temporary, { keyScope: null });
  expect(fs.existsSync(temporary)).toBe(false);
  return key;
}

/** Reads a stream to its end; on error, reports how many bytes had been released before it. */
async function drain(stream: Readable): Promise<{ bytes: Buffer; error?: Error }> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { bytes: Buffer.concat(chunks) };
  } catch (error) {
    return { bytes: Buffer.concat(chunks), error: error as Error };
  }
}

describe('encrypting file store', () => {
  it('round-trips a 50 MB file by streaming, stored as ciphertext only', async () => {
    const content = randomBytes(50 * 1024 * 1024);
    const started = performance.now();
    const key = await put(content);
    const written = performance.now();
    const hash = createHash('sha256');
    let length = 0;
    for await (const chunk of store.read(key)) {
      hash.update(chunk as Buffer);
      length += (chunk as Buffer).length;
    }
    const read = performance.now();
    console.info(
      `50 MiB: encrypt+store ${Math.round(written - started)} ms, read+decrypt ${Math.round(read - written)} ms`,
    );
    expect(length).toBe(content.length);
    expect(hash.digest('hex')).toBe(createHash('sha256').update(content).digest('hex'));
    const raw = fs.readFileSync(storedPath(key));
    // Header + one 16-byte tag per 64 KiB chunk: ciphertext, not a copy.
    expect(raw.length).toBe(content.length + 37 + Math.ceil(content.length / CHUNK_BYTES) * 16);
    expect(raw.subarray(37, 37 + 4096).equals(content.subarray(0, 4096))).toBe(false);
  }, 120_000);

  it('releases no byte of a tampered chunk, and refuses a file cut at a chunk boundary', async () => {
    const content = Buffer.alloc(CHUNK_BYTES * 3 + 100, 'a');
    const key = await put(content);
    const raw = fs.readFileSync(storedPath(key));
    const sealedChunk = CHUNK_BYTES + 16;

    const tampered = Buffer.from(raw);
    tampered[37 + sealedChunk + 10]! ^= 1; // inside the second chunk
    fs.writeFileSync(storedPath(key), tampered);
    const afterTamper = await drain(store.read(key));
    expect(afterTamper.error).toBeDefined();
    expect(afterTamper.bytes.length).toBeLessThanOrEqual(CHUNK_BYTES);

    fs.writeFileSync(storedPath(key), raw.subarray(0, 37 + sealedChunk * 2));
    const truncated = await drain(store.read(key));
    expect(truncated.error).toBeDefined();

    fs.writeFileSync(storedPath(key), raw);
    expect((await drain(store.read(key))).bytes.equals(content)).toBe(true);
  });

  it('reads a file stored before encryption at rest as it is, and tells it apart', async () => {
    const temporary = await disk.temporaryPath();
    fs.writeFileSync(temporary, 'legacy plaintext evidence');
    const key = await disk.commit(temporary);
    expect(await store.keyIdOf(key)).toBeNull();
    expect((await drain(store.read(key))).bytes.toString()).toBe('legacy plaintext evidence');
    const resealed = await store.reseal(key, null);
    expect(await store.keyIdOf(resealed)).toMatch(/^[0-9a-f-]{36}$/);
    expect(fs.readFileSync(storedPath(resealed)).includes('legacy plaintext')).toBe(false);
    expect((await drain(store.read(resealed))).bytes.toString()).toBe('legacy plaintext evidence');
  });
});
