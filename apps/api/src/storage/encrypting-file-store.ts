import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { pipeline as pipelineCallback, type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { deriveKey, type Keyring } from '../encryption/keyring.ts';
import type { CommitOptions, FileStore } from './file-store.ts';

/**
 * Stored file = header | chunk… . Header: magic "ANSIMENC", version, data key id (16 bytes), nonce prefix
 * (8 bytes), plaintext chunk size (uint32 BE). Each chunk is AES-256-GCM with nonce = prefix | counter, so
 * chunks cannot be reordered, dropped, cut off or moved to another file, and no byte reaches a reader before
 * its chunk's tag is checked.
 * - v2: the key is derived from the data key with HKDF (purpose `file:v2`), and each chunk's authenticated
 *   data is header | file id (16 bytes) | final flag, so a file's bytes put under another file's row (one
 *   case's evidence swapped for another's) do not open.
 * - v1 (still read): the data key itself, authenticated data header | final flag.
 * A reader refuses a chunk size above MAX_CHUNK_BYTES before buffering anything: it is read from the file,
 * before any tag could vouch for it.
 */
const MAGIC = Buffer.from('ANSIMENC', 'ascii');
const VERSION = 2;
const HEADER_BYTES = MAGIC.length + 1 + 16 + 8 + 4;
const TAG_BYTES = 16;
export const CHUNK_BYTES = 64 * 1024;
export const MAX_CHUNK_BYTES = 1024 * 1024;
const FILE_PURPOSE = 'file:v2';

const uuidToBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
const bytesToUuid = (bytes: Buffer) =>
  bytes.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

function chunkNonce(prefix: Buffer, counter: number): Buffer {
  const nonce = Buffer.alloc(12);
  prefix.copy(nonce, 0);
  nonce.writeUInt32BE(counter, 8);
  return nonce;
}

/** v1: header | final; v2: header | file id | final. */
const chunkAad = (header: Buffer, fileId: Buffer | null, isFinal: boolean) =>
  Buffer.concat([header, ...(fileId ? [fileId] : []), Buffer.from([isFinal ? 1 : 0])]);

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function fileIdBytes(fileId: string | undefined): Buffer {
  if (!fileId || !UUID_PATTERN.test(fileId)) throw new Error('an encrypted file needs the id of its row');
  return uuidToBytes(fileId);
}

function parseHeader(header: Buffer): { version: 1 | 2; keyId: string; chunkBytes: number } {
  const version = header[MAGIC.length];
  if (version !== 1 && version !== 2) throw new Error('unknown encrypted file version');
  const chunkBytes = header.readUInt32BE(MAGIC.length + 25);
  if (chunkBytes === 0 || chunkBytes > MAX_CHUNK_BYTES)
    throw new Error('encrypted file header has an invalid chunk size');
  return { version, keyId: bytesToUuid(header.subarray(MAGIC.length + 1, MAGIC.length + 17)), chunkBytes };
}

class EncryptingTransform extends Transform {
  #pending: Buffer = Buffer.alloc(0);
  #counter = 0;
  readonly #header: Buffer;
  readonly #prefix = randomBytes(8);

  readonly #fileId: Buffer;
  readonly #key: Buffer;

  constructor(keyId: string, dataKey: Buffer, fileId: string) {
    super();
    this.#fileId = fileIdBytes(fileId);
    this.#key = deriveKey(dataKey, FILE_PURPOSE);
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
    const cipher = createCipheriv('aes-256-gcm', this.#key, chunkNonce(this.#prefix, this.#counter++));
    cipher.setAAD(chunkAad(this.#header, this.#fileId, isFinal));
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

/**
 * Reads v2 and v1, and a file written before encryption at rest (no header), which passes through as it is.
 */
class DecryptingTransform extends Transform {
  #version = VERSION;
  #pending: Buffer = Buffer.alloc(0);
  #state: 'header' | 'legacy' | 'body' = 'header';
  #header = Buffer.alloc(0);
  #prefix = Buffer.alloc(0);
  #chunkBytes = CHUNK_BYTES;
  #key: Buffer | undefined;
  #counter = 0;
  #sawFinal = false;

  constructor(
    private readonly keyring: Keyring,
    private readonly fileId: string | undefined,
  ) {
    super();
  }

  #open(sealed: Buffer, isFinal: boolean) {
    const decipher = createDecipheriv('aes-256-gcm', this.#key!, chunkNonce(this.#prefix, this.#counter++));
    decipher.setAAD(chunkAad(this.#header, this.#version === 1 ? null : fileIdBytes(this.fileId), isFinal));
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
      const { version, keyId, chunkBytes } = parseHeader(this.#header);
      if (version === 2) fileIdBytes(this.fileId);
      this.#version = version;
      this.#prefix = this.#header.subarray(MAGIC.length + 17, MAGIC.length + 25);
      this.#chunkBytes = chunkBytes;
      this.#pending = this.#pending.subarray(HEADER_BYTES);
      this.#state = 'body';
      this.keyring.keyById(keyId).then(
        (key) => {
          this.#key = version === 1 ? key : deriveKey(key, FILE_PURPOSE);
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

export interface EncryptingFileStore extends Omit<FileStore, 'read'> {
  /**
   * Encrypts a complete upload into a sealed temporary file (the plaintext is removed) and returns its path,
   * for `commit` to move in as it is. It looks up the data key in the database, so it runs before the
   * transaction that records the file: on embedded PGlite (one connection) a query from inside that
   * transaction's callback would wait on the transaction itself, for ever. Encrypting a large file outside the
   * transaction also keeps the transaction short. `fileId` is the id the file's row will get: it is bound in.
   */
  seal(temporaryPath: string, options: SealOptions): Promise<string>;
  commit(temporaryPath: string, options?: SealOptions): Promise<string>;
  /** Decrypts and authenticates a stored file, which must be the one of the row `fileId`. */
  read(key: string, fileId: string): Readable;
  /** Removes a sealed file that will not be committed (the upload failed between seal and commit). */
  discardSealed(sealedPath: string): Promise<void>;
  /** The format and data key id of a stored file's header; null for a file stored before encryption at rest. */
  headerOf(key: string): Promise<{ version: 1 | 2; keyId: string } | null>;
  /** The data key id in a stored file's header; null for a file stored before encryption at rest. */
  keyIdOf(key: string): Promise<string | null>;
  /**
   * Copies a stored file, in the current format under the scope's active key, and returns the new storage
   * key (the old one stays).
   */
  reseal(key: string, keyScope: string | null, fileId: string): Promise<string>;
}

export interface SealOptions extends CommitOptions {
  /** The id of the file's row (made before the insert), bound into every chunk. */
  fileId: string;
}

/**
 * Encrypts every file on its way into any FileStore driver (disk, S3…) with the data key of the company it
 * belongs to (`commit`'s keyScope; the platform key without one), and decrypts and authenticates on read.
 */
export function createEncryptingFileStore(inner: FileStore, keyring: Keyring): EncryptingFileStore {
  const read = (key: string, fileId: string): Readable =>
    pipelineCallback(inner.read(key), new DecryptingTransform(keyring, fileId), () => {
      // Errors reach the reader through the returned stream.
    });
  async function sealToTemporary(source: Readable, keyScope: string | null, fileId: string): Promise<string> {
    let sealedPath: string | undefined;
    try {
      const { id, key } = await keyring.activeKey(keyScope);
      sealedPath = await inner.temporaryPath();
      await pipeline(
        source,
        new EncryptingTransform(id, key, fileId),
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
  async function sealFile(temporaryPath: string, options: SealOptions | undefined): Promise<string> {
    const sealedPath = await sealToTemporary(
      createReadStream(temporaryPath),
      options?.keyScope ?? null,
      options?.fileId as string,
    );
    // The plaintext upload leaves the disk as soon as its encrypted copy exists.
    await fs.rm(temporaryPath, { force: true });
    return sealedPath;
  }
  async function headerOf(key: string) {
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
    const { version, keyId } = parseHeader(head.subarray(0, HEADER_BYTES));
    return { version, keyId };
  }
  return {
    temporaryPath: () => inner.temporaryPath(),
    async seal(temporaryPath, options) {
      const sealedPath = await sealFile(temporaryPath, options);
      sealedPaths.add(sealedPath);
      return sealedPath;
    },
    async discardSealed(sealedPath) {
      sealedPaths.delete(sealedPath);
      await fs.rm(sealedPath, { force: true });
    },
    async commit(temporaryPath, options) {
      if (sealedPaths.delete(temporaryPath)) return inner.commit(temporaryPath);
      return commitSealed(await sealFile(temporaryPath, options));
    },
    read,
    remove: (key) => inner.remove(key),
    keys: () => inner.keys(),
    headerOf,
    keyIdOf: async (key) => (await headerOf(key))?.keyId ?? null,
    reseal: async (key, keyScope, fileId) =>
      commitSealed(await sealToTemporary(read(key, fileId), keyScope, fileId)),
  };
}
