import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Config, decodeKey } from '../config.ts';
import type { Database } from '../db/client.ts';
import { AppError } from '../lib/app-error.ts';

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Any row of another process's cache is re-read after this long, so an erase reaches every process. */
const KEY_CACHE_MS = 60_000;
/**
 * Which key is active is remembered this long, to spare a query per sealed value under load. A rotation waits
 * longer than this (ROTATION_GRACE_MS) before re-sealing, so nothing is sealed under a key it then deletes.
 */
export const ACTIVE_KEY_CACHE_MS = 2_000;
/** `coalesce(company_id, …)` of the platform key, matching the unique index `data_keys_active_key`. */
const PLATFORM_SCOPE = '00000000-0000-0000-0000-000000000000';

/** Thrown when data was sealed with a data key that no longer exists: its company's data was crypto-erased. */
export class DataErasedError extends AppError {
  constructor() {
    super('DATA_ERASED');
  }
}

/** AES-256-GCM of a short value, as iv | ciphertext | tag; `aad` binds it to where it is stored. */
export function sealBytes(key: Buffer, plaintext: Buffer, aad: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

/** Opens what `sealBytes` made; throws if a single bit of it, or of `aad`, was changed. */
export function openBytes(key: Buffer, sealed: Buffer, aad: string): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error('sealed value too short');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([
    decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)),
    decipher.final(),
  ]);
}

/**
 * A key for one purpose (sealed values, files, the blind index), derived from a data key with HKDF-SHA256
 * (RFC 5869). The data key itself never encrypts anything in format v2, so the same key material is never
 * used by two constructions; `purpose` names the use and the format version.
 */
const derived = new WeakMap<Buffer, Map<string, Buffer>>();
export function deriveKey(dataKey: Buffer, purpose: string): Buffer {
  let byPurpose = derived.get(dataKey);
  if (!byPurpose) {
    byPurpose = new Map();
    derived.set(dataKey, byPurpose);
  }
  let key = byPurpose.get(purpose);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), `ansim:${purpose}`, 32));
    byPurpose.set(purpose, key);
  }
  return key;
}

export interface DataKey {
  id: string;
  key: Buffer;
}

export type QueryFunction = (text: string, params: unknown[]) => Promise<unknown[]>;

type KeyRow = { id: string; company_id: string | null; wrapped_key: string };

/**
 * The data keys of every company, unwrapped with the master key on first use and cached per process. Which
 * key is active is remembered for ACTIVE_KEY_CACHE_MS, and a rotation waits longer than that before it
 * re-seals; unwrapped keys are re-checked after a minute, so an erase reaches every process
 * (docs/operations.md lists every cache of a process).
 */
export class Keyring {
  readonly #cache = new Map<string, { key: Buffer; loadedAt: number }>();
  readonly #active = new Map<string, { id: string; loadedAt: number }>();

  /**
   * ENCRYPTION_REQUIRE_SEALED: a non-empty value of a sealed column that is not sealed is refused instead of
   * being read as plaintext stored before encryption at rest.
   */
  requireSealed = false;

  constructor(
    private readonly database: Database,
    readonly masterKey: Buffer,
  ) {}

  /** Bound to the key's id and company: a wrapped key copied onto another company's row does not open. */
  static #wrapAad(id: string, companyId: string | null) {
    return `data-key:${id}:${companyId ?? 'platform'}`;
  }

  #remember(row: KeyRow): Buffer {
    const key = openBytes(
      this.masterKey,
      Buffer.from(row.wrapped_key, 'base64'),
      Keyring.#wrapAad(row.id, row.company_id),
    );
    this.#cache.set(row.id, { key, loadedAt: Date.now() });
    return key;
  }

  /**
   * The key new data of a company (or, with null, of the platform) is sealed with; made on first use. `within`
   * runs the lookup inside an open transaction instead (on PGlite a query from outside it would wait on it for
   * ever); a key that transaction creates is not remembered, since it vanishes if the transaction rolls back.
   */
  async activeKey(companyId: string | null, within?: QueryFunction): Promise<DataKey> {
    const scope = companyId ?? PLATFORM_SCOPE;
    const known = this.#active.get(scope);
    if (known && Date.now() - known.loadedAt < ACTIVE_KEY_CACHE_MS) {
      const cached = this.#cache.get(known.id);
      if (cached) return { id: known.id, key: cached.key };
    }
    const query: QueryFunction = within ?? ((text, params) => this.database.query(text, params));
    for (let attempt = 0; attempt < 3; attempt++) {
      // `uncommitted`: made by the open transaction `within` (its default created_at is that transaction's
      // now()), which may still roll back.
      const [row] = (await query(
        `SELECT id, company_id, wrapped_key, $3::boolean AND created_at = now() AS uncommitted FROM data_keys
          WHERE coalesce(company_id, $2::uuid) = coalesce($1::uuid, $2::uuid) AND retired_at IS NULL`,
        [companyId, PLATFORM_SCOPE, within !== undefined],
      )) as (KeyRow & { uncommitted: boolean })[];
      if (row) {
        if (row.uncommitted) {
          const key = openBytes(
            this.masterKey,
            Buffer.from(row.wrapped_key, 'base64'),
            Keyring.#wrapAad(row.id, row.company_id),
          );
          return { id: row.id, key };
        }
        this.#active.set(scope, { id: row.id, loadedAt: Date.now() });
        return { id: row.id, key: this.#cache.get(row.id)?.key ?? this.#remember(row) };
      }
      const id = randomUUID();
      const wrapped = sealBytes(this.masterKey, randomBytes(32), Keyring.#wrapAad(id, companyId));
      // Two processes may create the first key at once: the unique index keeps one, and both then read it.
      await query(
        'INSERT INTO data_keys (id, company_id, wrapped_key) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [id, companyId, wrapped.toString('base64')],
      );
    }
    throw new Error('could not create a data key');
  }

  /** Every data key of a company that still exists (the active one and any a rotation has not yet deleted). */
  async keysOf(companyId: string): Promise<DataKey[]> {
    // Asked at every name search (one index lookup): a key another process has just made counts at once.
    const rows = await this.database.query<KeyRow>(
      'SELECT id, company_id, wrapped_key FROM data_keys WHERE company_id = $1',
      [companyId],
    );
    return rows.map((row) => ({
      id: row.id,
      key: this.#cache.get(row.id)?.key ?? this.#remember(row),
    }));
  }

  /** The key with this id, for reading; DataErasedError once it has been deleted. */
  async keyById(id: string): Promise<Buffer> {
    const cached = this.#cache.get(id);
    if (cached && Date.now() - cached.loadedAt < KEY_CACHE_MS) return cached.key;
    const [row] = await this.database.query<KeyRow>(
      'SELECT id, company_id, wrapped_key FROM data_keys WHERE id = $1',
      [id],
    );
    if (!row) {
      this.#cache.delete(id);
      throw new DataErasedError();
    }
    return this.#remember(row);
  }

  /** Drops keys from this process's cache after they were deleted. */
  forget(ids: Iterable<string>): void {
    for (const id of ids) this.#cache.delete(id);
    this.#active.clear();
  }
}

const keyrings = new WeakMap<Database, Keyring>();
/**
 * The same keyrings by drizzle dialect: drizzle hands its database's dialect object to every transaction it
 * opens, so code given only a transaction (a mail queued inside one) still finds the keyring.
 */
const keyringsByDialect = new WeakMap<object, Keyring>();
const dialectOf = (db: unknown) => (db as { dialect?: object }).dialect;

/** Sets up encryption at rest for a database; the codec and the encrypting file store find it from there. */
export function attachKeyring(
  database: Database,
  masterKey: Buffer,
  options: { requireSealed?: boolean } = {},
): Keyring {
  const existing = keyrings.get(database);
  const keyring = existing?.masterKey.equals(masterKey) ? existing : new Keyring(database, masterKey);
  keyring.requireSealed = options.requireSealed ?? false;
  keyrings.set(database, keyring);
  const dialect = dialectOf(database.db);
  if (dialect) keyringsByDialect.set(dialect, keyring);
  return keyring;
}

/** The keyring of the database a drizzle transaction (or database) belongs to. */
export function keyringOfExecutor(executor: unknown): Keyring {
  const dialect = dialectOf(executor);
  const keyring = dialect && keyringsByDialect.get(dialect);
  if (!keyring) throw new Error('encryption at rest is not set up for this database (attachKeyring)');
  return keyring;
}

/** The database's keyring. Failing here, rather than writing plaintext, is deliberate. */
export function keyringOf(database: Database): Keyring {
  const keyring = keyrings.get(database);
  if (!keyring) throw new Error('encryption at rest is not set up for this database (attachKeyring)');
  return keyring;
}

/**
 * The configured master key. With neither ENCRYPTION_KEY nor SECRET_KEY (development only; production refuses
 * to start) a random key is kept in DATA_DIR/encryption.key, so a restart still reads the demo data.
 */
export function resolveMasterKey(config: Pick<Config, 'encryptionKey' | 'dataDir'>): Buffer {
  if (config.encryptionKey) return config.encryptionKey;
  const file = path.join(config.dataDir, 'encryption.key');
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = decodeKey(fs.readFileSync(file, 'utf8'));
  if (!key) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}
