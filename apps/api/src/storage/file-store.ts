import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { randomToken } from '../lib/tokens.ts';

/**
 * Where evidence bytes live. Uploads are first written to a temporary path and moved in only when complete,
 * so a reader never sees half a file and a failed upload leaves nothing behind.
 */
export interface FileStore {
  /** A fresh path for an upload in progress. */
  temporaryPath(): Promise<string>;
  /** Moves a complete temporary file into the store under a new random key, and returns the key. */
  commit(temporaryPath: string, options?: CommitOptions): Promise<string>;
  read(key: string): Readable;
  remove(key: string): Promise<void>;
  /** Every key in the store, for the sweep that removes files no database row refers to. */
  keys(): AsyncIterable<string>;
}

export interface CommitOptions {
  /**
   * The company whose data key encrypts the file (null: the platform key). Only the encrypting wrapper
   * (encrypting-file-store.ts) reads it; storage drivers ignore it.
   */
  keyScope?: string | null;
}

const KEY_PATTERN = /^[\w-]{43}$/;

/** Keys are random tokens made by commit; anything else (a path, `..`) is refused before it reaches storage. */
export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function assertStorageKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw new Error('invalid storage key');
}

/** Files under DATA_DIR/files, outside any folder the web server serves, named by random keys only. */
export function createDiskFileStore(root: string): FileStore {
  const temporaryDir = path.join(root, '.tmp');
  const pathOf = (key: string) => {
    assertStorageKey(key);
    return path.join(root, key.slice(0, 2), key);
  };
  let prepared: Promise<unknown> | undefined;
  const prepare = () => {
    prepared ??= fs.mkdir(temporaryDir, { recursive: true });
    return prepared;
  };
  return {
    async temporaryPath() {
      await prepare();
      return path.join(temporaryDir, `${randomToken()}.part`);
    },
    async commit(temporaryPath) {
      const key = randomToken();
      const target = pathOf(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(temporaryPath, target);
      return key;
    },
    read: (key) => createReadStream(pathOf(key)),
    async remove(key) {
      await fs.rm(pathOf(key), { force: true });
    },
    async *keys() {
      await prepare();
      for (const dir of await fs.readdir(root, { withFileTypes: true })) {
        if (!dir.isDirectory() || dir.name === '.tmp') continue;
        for (const entry of await fs.readdir(path.join(root, dir.name))) {
          if (KEY_PATTERN.test(entry)) yield entry;
        }
      }
    },
  };
}
