import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { pipeline as pipelineCallback, type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Keyring } from '../encryption/keyring.ts';
import type { CommitOptions, FileStore } from './file-store.ts';

/**
 * Stored file = header | chunk… . Header: magic "ANSIMENC", version 1, data key id (16 bytes), nonce prefix
 * (8 bytes), plaintext chunk size (uint32 BE). Each chunk is AES-256-GCM with nonce = prefix | counter and
 * authenticated data = header | final flag, so chunks cannot be reordered, dropped, cut off or moved to
 * another file, and no byte reaches a reader before its chunk's tag is checked.
 */
const MAGIC = Buffer.from('ANSIMENC', 'ascii');
const VERSION = 1;
const HEADER_BYTES = MAGIC.length + 1 + 16 + 8 + 4;
const TAG_BYTES = 16;
export const CHUNK_BYTES = 64 * 1024;

const uuidToBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
const bytesToUuid = (bytes: Buffer) =>
  bytes.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

function chunkNonce(prefix: Buffer, counter: number): Buffer {
  const nonce = Buffer.alloc(12);
  prefix.copy(nonce, 0);
  nonce.writeUInt32BE(counter, 8);
  return nonce;
}

const chunkAad = (header: Buffer, isFinal: boolean) =>
  Buffer.concat([header, Buffer.from([isFinal ? 1 : 0])]);

class EncryptingTransform extends Transform {
  #pending: Buffer = Buffer.alloc(0);
  #counter = 0;
  readonly #header: Buffer;
  readonly #prefix = randomBytes(8);

  constructor(
    keyId: string,
    private readonly key: Buffer,
  ) {
    super();
    const chunkSize = Buffer.alloc(4);
    chunkSize.writeUInt32BE(CHUNK_BYTES);
    this.#header = Buffer.concat([
      MAGIC,
      Buffer.from([VERSION]),
      uuidToBytes(keyId),
      this.#prefix,
      chunkSize,
    ]);
    this.push(this.#header);
  }

  #seal(plaintext: Buffer, isFinal: boolean) {
    if (this.#counter === 0xffffffff) throw new Error('file too large to encrypt');
    const cipher = createCipheriv('aes-256-gcm', this.key, chunkNonce(this.#prefix, this.#counter++));
    cipher.setAAD(chunkAad(this.#header, isFinal));
    this.push(Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]));
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.#pending = this.#pending.length ? Buffer.concat([this.#pending, chunk]) : chunk;
    // The last chunk is held back until the end, since it is sealed as final.
    while (this.#pending.length > CHUNK_BYTES) {
      this.#seal(this.#pending.subarray(0, CHUNK_BYTES), false);
      this.#pending = this.#pending.subarray(CHUNK_BYTES);
    }
    callback();
  }

  override _flush(callback: TransformCallback) {
    this.#seal(this.#pending, true);
    callback();
  }
}

/** Reads either format: a file written before encryption at rest has no header and passes through as it is. */
class DecryptingTransform extends Transform {
  #pending: Buffer = Buffer.alloc(0);
  #state: 'header' | 'legacy' | 'body' = 'header';
  #header = Buffer.alloc(0);
  #prefix = Buffer.alloc(0);
  #chunkBytes = CHUNK_BYTES;
  #key: Buffer | undefined;
  #counter = 0;
  #sawFinal = false;

  constructor(private readonly keyring: Keyring) {
    super();
  }

  #open(sealed: Buffer, isFinal: boolean) {
    const decipher = createDecipheriv('aes-256-gcm', this.#key!, chunkNonce(this.#prefix, this.#counter++));
    decipher.setAAD(chunkAad(this.#header, isFinal));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    this.push(
      Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]),
    );
  }

  #drain(atEnd: boolean) {
    const sealedChunk = this.#chunkBytes + TAG_BYTES;
    while (this.#pending.length > sealedChunk) {
      this.#open(this.#pending.subarray(0, sealedChunk), false);
      this.#pending = this.#pending.subarray(sealedChunk);
    }
    if (atEnd) {
      if (this.#pending.length < TAG_BYTES) throw new Error('encrypted file is truncated');
      this.#open(this.#pending, true);
      this.#pending = Buffer.alloc(0);
      this.#sawFinal = true;
    }
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    if (this.#state === 'legacy') {
      callback(null, chunk);
      return;
    }
    this.#pending = this.#pending.length ? Buffer.concat([this.#pending, chunk]) : chunk;
    try {
      if (this.#state === 'body') {
        this.#drain(false);
        callback();
        return;
      }
      const head = this.#pending.subarray(0, MAGIC.length);
      if (!MAGIC.subarray(0, head.length).equals(head)) {
        this.#state = 'legacy';
        const bytes = this.#pending;
        this.#pending = Buffer.alloc(0);
        callback(null, bytes);
        return;
      }
      if (this.#pending.length < HEADER_BYTES) {
        callback();
        return;
      }
      this.#header = Buffer.from(this.#pending.subarray(0, HEADER_BYTES));
      if (this.#header[MAGIC.length] !== VERSION) throw new Error('unknown encrypted file version');
      const keyId = bytesToUuid(this.#header.subarray(MAGIC.length + 1, MAGIC.length + 17));
      this.#prefix = this.#header.subarray(MAGIC.length + 17, MAGIC.length + 25);
      this.#chunkBytes = this.#header.readUInt32BE(MAGIC.length + 25);
      this.#pending = this.#pending.subarray(HEADER_BYTES);
      this.#state = 'body';
      this.keyring.keyById(keyId).then(
        (key) => {
          this.#key = key;
          try {
            this.#drain(false);
            callback();
          } catch (error) {
            callback(error as Error);
          }
        },
        (error: Error) => callback(error),
      );
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback) {
    try {
      if (this.#state === 'header') {
        // A short file: either plaintext that merely began like the magic, or a cut-off header.
        if (this.#pending.length >= MAGIC.length) throw new Error('encrypted file is truncated');
        callback(null, this.#pending);
        return;
      }
      if (this.#state === 'body') this.#drain(true);
      if (this.#state === 'body' && !this.#sawFinal) throw new Error('encrypted file is truncated');
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }
}

export interface EncryptingFileStore extends FileStore {
  /**
   * Encrypts a complete upload into a sealed temporary file (the plaintext is removed) and returns its path,
   * for `commit` to move in as it is. It looks up the data key in the database, so it runs before the
   * transaction that records the file: on embedded PGlite (one connection) a query from inside that
   * transaction's callback would wait on the transaction itself, for ever. Encrypting a large file outside the
   * transaction also keeps the transaction short.
   */
  seal(temporaryPath: string, options?: CommitOptions): Promise<string>;
  /** Removes a sealed file that will not be committed (the upload failed between seal and commit). */
  discardSealed(sealedPath: string): Promise<void>;
  /** The data key id in a stored file's header; null for a file stored before encryption at rest. */
  keyIdOf(key: string): Promise<string | null>;
  /** Copies a stored file under the scope's active key and returns the new storage key (the old one stays). */
  reseal(key: string, keyScope: string | null): Promise<string>;
}

/**
 * Encrypts every file on its way into any FileStore driver (disk, S3…) with the data key of the company it
 * belongs to (`commit`'s keyScope; the platform key without one), and decrypts and authenticates on read.
 */
export function createEncryptingFileStore(inner: FileStore, keyring: Keyring): EncryptingFileStore {
  const read = (key: string): Readable =>
    pipelineCallback(inner.read(key), new DecryptingTransform(keyring), () => {
      // Errors reach the reader through the returned stream.
    });
  async function sealToTemporary(source: Readable, keyScope: string | null): Promise<string> {
    let sealedPath: string | undefined;
    try {
      const { id, key } = await keyring.activeKey(keyScope);
      sealedPath = await inner.temporaryPath();
      await pipeline(
        source,
        new EncryptingTransform(id, key),
        createWriteStream(sealedPath, { flags: 'wx' }),
      );
      return sealedPath;
    } catch (error) {
      source.destroy();
      if (sealedPath) await fs.rm(sealedPath, { force: true });
      throw error;
    }
  }
  async function commitSealed(sealedPath: string): Promise<string> {
    try {
      return await inner.commit(sealedPath);
    } catch (error) {
      await fs.rm(sealedPath, { force: true });
      throw error;
    }
  }
  // Paths made by seal(): only these are moved into the store as they are; any other path is plaintext.
  const sealedPaths = new Set<string>();
  async function sealFile(temporaryPath: string, keyScope: string | null): Promise<string> {
    const sealedPath = await sealToTemporary(createReadStream(temporaryPath), keyScope);
    // The plaintext upload leaves the disk as soon as its encrypted copy exists.
    await fs.rm(temporaryPath, { force: true });
    return sealedPath;
  }
  return {
    temporaryPath: () => inner.temporaryPath(),
    async seal(temporaryPath, options) {
      const sealedPath = await sealFile(temporaryPath, options?.keyScope ?? null);
      sealedPaths.add(sealedPath);
      return sealedPath;
    },
    async discardSealed(sealedPath) {
      sealedPaths.delete(sealedPath);
      await fs.rm(sealedPath, { force: true });
    },
    async commit(temporaryPath: string, options?: CommitOptions) {
      if (sealedPaths.delete(temporaryPath)) return inner.commit(temporaryPath);
      return commitSealed(await sealFile(temporaryPath, options?.keyScope ?? null));
    },
    read,
    remove: (key) => inner.remove(key),
    keys: () => inner.keys(),
    async keyIdOf(key) {
      const stream = inner.read(key);
      let head = Buffer.alloc(0);
      try {
        for await (const chunk of stream) {
          head = Buffer.concat([head, chunk as Buffer]);
          if (head.length >= HEADER_BYTES) break;
        }
      } finally {
        stream.destroy();
      }
      if (head.length < HEADER_BYTES || !head.subarray(0, MAGIC.length).equals(MAGIC)) return null;
      return bytesToUuid(head.subarray(MAGIC.length + 1, MAGIC.length + 17));
    },
    reseal: async (key, keyScope) => commitSealed(await sealToTemporary(read(key), keyScope)),
  };
}
