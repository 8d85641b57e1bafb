import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { files, users } from '../src/db/schema.ts';
import {
  ABANDONED_PART_AGE_MS,
  FILE_STORE_LOCK_KEY,
  sweepOrphanFiles,
} from '../src/domain/files/sweep-orphans.ts';
import { createDiskFileStore, type FileStore } from '../src/storage/file-store.ts';
import { createTestDatabase, TEST_DB } from './helpers.ts';

let database: Database;
let root: string;
let store: FileStore;
let temporaryDir: string;
let ownerId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ansim-sweep-'));
  store = createDiskFileStore(root);
  temporaryDir = path.join(root, '.tmp');
  const [owner] = await database.db
    .insert(users)
    .values({ email: 'sweep@corp.example', passwordHash: 'unused', name: '정리' })
    .returning({ id: users.id });
  ownerId = owner!.id;
});

afterAll(async () => {
  await database.close();
  await fs.rm(root, { recursive: true, force: true });
});

async function storeBytes(content: string): Promise<string> {
  const part = await store.temporaryPath();
  await fs.writeFile(part, content);
  return store.commit(part);
}

function row(storageKey: string) {
  return {
    ownerUserId: ownerId,
    originalName: 'a.txt',
    size: 1,
    contentType: 'text/plain',
    storageKey,
    sha256: '0'.repeat(64),
  };
}

const exists = (key: string) =>
  fs.access(path.join(root, key.slice(0, 2), key)).then(
    () => true,
    () => false,
  );

it('removes stored bytes no row names and parts no upload has written to for an hour, and nothing else', async () => {
  const kept = await storeBytes('cited');
  await database.db.insert(files).values(row(kept));
  const orphan = await storeBytes('left by a crash');
  const freshPart = await store.temporaryPath();
  await fs.writeFile(freshPart, 'an upload in progress');
  const stalePart = await store.temporaryPath();
  await fs.writeFile(stalePart, 'an upload cut off');
  const then = new Date(Date.now() - ABANDONED_PART_AGE_MS - 1000);
  await fs.utimes(stalePart, then, then);

  expect(await sweepOrphanFiles(database, store, temporaryDir)).toEqual({
    uncitedUploads: 0,
    orphanBytes: 1,
    abandonedParts: 1,
  });
  expect(await exists(kept)).toBe(true);
  expect(await exists(orphan)).toBe(false);
  expect(await fs.readdir(temporaryDir)).toEqual([path.basename(freshPart)]);
});

it('waits for an upload whose bytes are stored but whose row is not yet committed, and keeps its bytes', async () => {
  let bytesStored: () => void = () => {};
  const stored = new Promise<void>((resolve) => {
    bytesStored = resolve;
  });
  let finishUpload: () => void = () => {};
  const finish = new Promise<void>((resolve) => {
    finishUpload = resolve;
  });
  let key = '';
  // What storeUpload does: the bytes and the row appear under the shared lock.
  const upload = database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock_shared(${FILE_STORE_LOCK_KEY})`);
    key = await storeBytes('in flight');
    bytesStored();
    await finish;
    await tx.insert(files).values(row(key));
  });
  await stored;
  let listed: () => void = () => {};
  const keysListed = new Promise<void>((resolve) => {
    listed = resolve;
  });
  const watchedStore: Pick<FileStore, 'keys' | 'remove'> = {
    async *keys() {
      yield* store.keys();
      listed();
    },
    remove: (key) => store.remove(key),
  };
  const sweeping = sweepOrphanFiles(database, watchedStore, temporaryDir);
  if (TEST_DB === 'postgres') {
    // The sweep has found the bytes without a row and now waits for the exclusive lock the upload blocks.
    await vi.waitFor(
      async () => {
        const [waiting] = await database.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = $1`,
          [FILE_STORE_LOCK_KEY],
        );
        expect(waiting!.n).toBe(1);
      },
      { timeout: 30_000 },
    );
  } else {
    // PGlite runs one transaction at a time: once the store is listed, the sweep's next step is a query that
    // queues behind the open upload (reached within microtasks, so one macrotask later it is queued).
    await keysListed;
    await new Promise((resolve) => setImmediate(resolve));
  }
  finishUpload();
  await upload;
  expect((await sweeping).orphanBytes).toBe(0);
  expect(await exists(key)).toBe(true);
});
