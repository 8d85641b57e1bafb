import { createCipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/client.ts';
import { attachKeyring, type Keyring } from '../encryption/keyring.ts';
import {
  CHUNK_BYTES,
  createEncryptingFileStore,
  type EncryptingFileStore,
  MAX_CHUNK_BYTES,
} from './encrypting-file-store.ts';
import { createDiskFileStore, type FileStore } from './file-store.ts';

let database: Database;
let root: string;
let disk: FileStore;
let store: EncryptingFileStore;
let keyring: Keyring;

beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite' });
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-enc-store-'));
  disk = createDiskFileStore(root);
  keyring = attachKeyring(database, randomBytes(32));
  store = createEncryptingFileStore(disk, keyring);
});
afterAll(async () => {
  await database.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const storedPath = (key: string) => path.join(root, key.slice(0, 2), key);

/** Stores content as the file of a new row; returns the storage key and that row's id. */
async function put(content: Buffer): Promise<{ key: string; fileId: string }> {
  const temporary = await store.temporaryPath();
  fs.writeFileSync(temporary, content);
  const fileId = randomUUID();
  const key = await store.commit(temporary, { keyScope: null, fileId });
  expect(fs.existsSync(temporary)).toBe(false);
  return { key, fileId };
}

/** A file as format v1 wrote it: the data key itself, chunks bound to the header only. */
async function putV1(content: Buffer, chunkBytes = CHUNK_BYTES): Promise<string> {
  const { id, key } = await keyring.activeKey(null);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(chunkBytes);
  const prefix = randomBytes(8);
  const header = Buffer.concat([
    Buffer.from('ANSIMENC'),
    Buffer.from([1]),
    Buffer.from(id.replace(/-/g, ''), 'hex'),
    prefix,
    size,
  ]);
  const parts = [header];
  let counter = 0;
  for (let offset = 0; ; offset += chunkBytes) {
    const isFinal = offset + chunkBytes >= content.length;
    const nonce = Buffer.alloc(12);
    prefix.copy(nonce);
    nonce.writeUInt32BE(counter++, 8);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.concat([header, Buffer.from([isFinal ? 1 : 0])]));
    parts.push(
      cipher.update(content.subarray(offset, offset + chunkBytes)),
      cipher.final(),
      cipher.getAuthTag(),
    );
    if (isFinal) break;
  }
  const temporary = await disk.temporaryPath();
  fs.writeFileSync(temporary, Buffer.concat(parts));
  return disk.commit(temporary);
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
    const { key, fileId } = await put(content);
    const written = performance.now();
    const hash = createHash('sha256');
    let length = 0;
    for await (const chunk of store.read(key, fileId)) {
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
    const { key, fileId } = await put(content);
    const raw = fs.readFileSync(storedPath(key));
    const sealedChunk = CHUNK_BYTES + 16;

    const tampered = Buffer.from(raw);
    tampered[37 + sealedChunk + 10]! ^= 1; // inside the second chunk
    fs.writeFileSync(storedPath(key), tampered);
    const afterTamper = await drain(store.read(key, fileId));
    expect(afterTamper.error).toBeDefined();
    expect(afterTamper.bytes.length).toBeLessThanOrEqual(CHUNK_BYTES);

    fs.writeFileSync(storedPath(key), raw.subarray(0, 37 + sealedChunk * 2));
    const truncated = await drain(store.read(key, fileId));
    expect(truncated.error).toBeDefined();

    fs.writeFileSync(storedPath(key), raw);
    expect((await drain(store.read(key, fileId))).bytes.equals(content)).toBe(true);
  });

  it('opens a file only as the file of its own row', async () => {
    const mine = await put(Buffer.from('evidence of case one'));
    const other = await put(Buffer.from('evidence of case two'));
    expect((await drain(store.read(mine.key, mine.fileId))).bytes.toString()).toBe('evidence of case one');
    // The bytes of one row's file put under another row (a swapped storage key) do not open.
    const swapped = await drain(store.read(mine.key, other.fileId));
    expect(swapped.error).toBeDefined();
    expect(swapped.bytes.length).toBe(0);
    expect((await store.headerOf(mine.key))?.version).toBe(2);
  });

  it('refuses a header whose chunk size is over the bound, before buffering a chunk', async () => {
    const { key, fileId } = await put(Buffer.alloc(1000, 'b'));
    const raw = fs.readFileSync(storedPath(key));
    const forged = Buffer.from(raw);
    forged.writeUInt32BE(0xffffffff, 33);
    fs.writeFileSync(storedPath(key), forged);
    const read = await drain(store.read(key, fileId));
    expect(read.error?.message).toMatch(/chunk size/);
    expect(read.bytes.length).toBe(0);
    await expect(store.headerOf(key)).rejects.toThrow(/chunk size/);
    // A v1 file is held to the same bound.
    const v1 = await putV1(Buffer.alloc(10, 'c'), MAX_CHUNK_BYTES + 1);
    expect((await drain(store.read(v1, fileId))).error?.message).toMatch(/chunk size/);
  });

  it('still reads a v1 file, and reseals it as v2 bound to its row', async () => {
    const content = Buffer.alloc(CHUNK_BYTES * 2 + 7, 'v');
    const v1 = await putV1(content);
    const fileId = randomUUID();
    expect((await store.headerOf(v1))?.version).toBe(1);
    expect((await drain(store.read(v1, fileId))).bytes.equals(content)).toBe(true);
    const v2 = await store.reseal(v1, null, fileId);
    expect((await store.headerOf(v2))?.version).toBe(2);
    expect((await drain(store.read(v2, fileId))).bytes.equals(content)).toBe(true);
    expect((await drain(store.read(v2, randomUUID()))).error).toBeDefined();
  });

  it('reads a file stored before encryption at rest as it is, and tells it apart', async () => {
    const temporary = await disk.temporaryPath();
    fs.writeFileSync(temporary, 'legacy plaintext evidence');
    const key = await disk.commit(temporary);
    expect(await store.keyIdOf(key)).toBeNull();
    const fileId = randomUUID();
    expect((await drain(store.read(key, fileId))).bytes.toString()).toBe('legacy plaintext evidence');
    const resealed = await store.reseal(key, null, fileId);
    expect(await store.keyIdOf(resealed)).toMatch(/^[0-9a-f-]{36}$/);
    expect(fs.readFileSync(storedPath(resealed)).includes('legacy plaintext')).toBe(false);
    expect((await drain(store.read(resealed, fileId))).bytes.toString()).toBe('legacy plaintext evidence');
  });
});
