import fs from 'node:fs/promises';
import path from 'node:path';
import { and, inArray, isNotNull, lt, notExists, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { files, reportFiles } from '../../db/schema.ts';
import type { FileStore } from '../../storage/file-store.ts';

/**
 * The advisory lock between uploads and the sweep. An upload holds it shared from the moment its bytes enter
 * the store until its `files` row is committed; the sweep takes it exclusively before removing anything. So
 * bytes without a row are either an upload still in progress (the sweep waits for it, then sees its row) or
 * an upload whose process died (its transaction, and its lock, ended with its connection): never mistaken.
 */
export const FILE_STORE_LOCK_KEY = 7_310_042;

/**
 * A part no byte has reached for this long belongs to no upload in progress: uploads stream their part as the
 * bytes arrive and move it into the store seconds after the last one.
 */
export const ABANDONED_PART_AGE_MS = 60 * 60 * 1000;

/**
 * An account's upload that no report cites is deleted after this long. Stripping is deterministic, so a file
 * kept under an account (an abandoned named draft's evidence) is the same file an anonymous report may cite
 * later: its size and, with the key, its digest would join the two (docs/decisions/0029).
 */
export const UNCITED_UPLOAD_AGE_MS = 7 * 24 * 60 * 60 * 1000;

type Executor = Pick<Db, 'select'>;

/** Deletes the rows of account uploads older than `UNCITED_UPLOAD_AGE_MS` that no report cites; their keys. */
async function deleteUncitedAccountUploads(database: Database, now: number): Promise<string[]> {
  const rows = await database.db
    .delete(files)
    .where(
      and(
        isNotNull(files.ownerUserId),
        lt(files.createdAt, new Date(now - UNCITED_UPLOAD_AGE_MS)),
        notExists(
          database.db
            .select({ one: sql`1` })
            .from(reportFiles)
            .where(sql`${reportFiles.fileId} = ${files.id}`),
        ),
      ),
    )
    .returning({ key: files.storageKey });
  return rows.map((row) => row.key);
}

async function keysWithoutRow(executor: Executor, keys: string[]): Promise<string[]> {
  const withRow = new Set<string>();
  for (let start = 0; start < keys.length; start += 1000) {
    const batch = keys.slice(start, start + 1000);
    const rows = await executor
      .select({ key: files.storageKey })
      .from(files)
      .where(inArray(files.storageKey, batch));
    for (const row of rows) withRow.add(row.key);
  }
  return keys.filter((key) => !withRow.has(key));
}

/**
 * Removes what a crash or a kill can leave behind in the file store: bytes stored by an upload that never
 * committed its row, and parts of uploads cut off mid-stream in `temporaryDir`. Safe beside uploads of every
 * process (see FILE_STORE_LOCK_KEY); the exclusive lock is taken only when there is something to remove.
 * Then it deletes account uploads no report cited within `UNCITED_UPLOAD_AGE_MS`, rows and bytes.
 */
export async function sweepOrphanFiles(
  database: Database,
  fileStore: Pick<FileStore, 'keys' | 'remove'>,
  temporaryDir: string,
  now = Date.now(),
): Promise<{ uncitedUploads: number; orphanBytes: number; abandonedParts: number }> {
  const stored: string[] = [];
  for await (const key of fileStore.keys()) stored.push(key);
  const candidates = await keysWithoutRow(database.db, stored);
  let orphanBytes = 0;
  if (candidates.length > 0) {
    orphanBytes = await database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${FILE_STORE_LOCK_KEY})`);
      const orphans = await keysWithoutRow(tx, candidates);
      for (const key of orphans) await fileStore.remove(key);
      return orphans.length;
    });
  }

  let abandonedParts = 0;
  const parts = await fs.readdir(temporaryDir).catch(() => [] as string[]);
  for (const name of parts) {
    const part = path.join(temporaryDir, name);
    const stat = await fs.stat(part).catch(() => null);
    if (stat?.isFile() && now - stat.mtimeMs > ABANDONED_PART_AGE_MS) {
      await fs.rm(part, { force: true });
      abandonedParts += 1;
    }
  }
  // Last: its rows go first and their bytes after, so nothing it leaves is taken for an orphan above.
  const uncited = await deleteUncitedAccountUploads(database, now);
  for (const key of uncited) await fileStore.remove(key);
  return { uncitedUploads: uncited.length, orphanBytes, abandonedParts };
}
