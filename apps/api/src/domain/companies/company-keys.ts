import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../db/client.ts';
import { FILE_COMPANY, resealColumns } from '../../encryption/codec.ts';
import { ACTIVE_KEY_CACHE_MS, DataErasedError, keyringOf } from '../../encryption/keyring.ts';
import type { EncryptingFileStore } from '../../storage/encrypting-file-store.ts';
import { AdminCommandError } from './admin.ts';

/** Longer than any process remembers the active key, so writes that took the old one have landed. */
const ROTATION_GRACE_MS = ACTIVE_KEY_CACHE_MS + 3_000;

type Deps = { database: Database; fileStore: EncryptingFileStore };

async function companyName(database: Database, companyId: string): Promise<string> {
  const [row] = /^[0-9a-f-]{36}$/i.test(companyId)
    ? await database.query<{ name: string }>('SELECT name FROM companies WHERE id = $1', [companyId])
    : [];
  if (!row) throw new AdminCommandError(`No company with id ${companyId}. See company:list.`);
  return row.name;
}

/** Files that belong to a company: its members', its cases' invitees', and any its cases cite. */
async function companyFiles(database: Database, companyId: string) {
  return database.query<{ id: string; storage_key: string }>(
    `SELECT f.id, f.storage_key FROM files f
      WHERE f.owner_user_id IN (SELECT id FROM users WHERE company_id = $1)
         OR f.owner_invitation_id IN (SELECT i.id FROM invitations i JOIN reports r ON r.id = i.report_id
                                       WHERE r.company_id = $1)
         OR f.id IN (SELECT rf.file_id FROM report_files rf JOIN reports r ON r.id = rf.report_id
                      WHERE r.company_id = $1)
         OR f.owner_intake_id IN (SELECT id FROM intake_sessions WHERE company_id = $1)
         OR f.owner_report_id IN (SELECT id FROM reports WHERE company_id = $1)`,
    [companyId],
  );
}

/**
 * Re-encrypts stored files under the scope's active key in the current format, skipping those `done` says
 * need nothing. Each row is repointed only if it still names the file read, so a file deleted meanwhile leaves
 * no orphan; the replaced bytes are removed.
 */
async function resealFiles(
  { database, fileStore }: Deps,
  rows: { id: string; storage_key: string }[],
  keyScope: string | null,
  done: (header: { version: 1 | 2; keyId: string } | null) => boolean,
): Promise<{ resealed: number; unreadable: number }> {
  let resealed = 0;
  let unreadable = 0;
  for (const file of rows) {
    if (done(await fileStore.headerOf(file.storage_key))) continue;
    let newStorageKey: string;
    try {
      newStorageKey = await fileStore.reseal(file.storage_key, keyScope, file.id);
    } catch (error) {
      if (!(error instanceof DataErasedError)) throw error;
      unreadable += 1;
      continue;
    }
    const updated = await database.query(
      'UPDATE files SET storage_key = $1 WHERE id = $2 AND storage_key = $3 RETURNING id',
      [newStorageKey, file.id, file.storage_key],
    );
    // The row moved on (deleted meanwhile): the copy is the orphan, not the original.
    await fileStore.remove(updated.length ? file.storage_key : newStorageKey);
    if (updated.length) resealed += 1;
  }
  return { resealed, unreadable };
}

export interface RotationResult {
  companyName: string;
  newKeyId: string;
  values: number;
  files: number;
  unreadable: number;
  retiredKeys: number;
}

/**
 * Replaces a company's data key: a new key becomes active, every sealed value and file of the company is
 * re-encrypted under it (values written before encryption at rest too), and the old keys are deleted. Data
 * of other companies is not touched. Safe while the servers run; a value edited meanwhile is re-read.
 */
export async function rotateCompanyKey(
  { database, fileStore }: Deps,
  companyId: string,
  options: { graceMs?: number } = {},
): Promise<RotationResult> {
  const name = await companyName(database, companyId);
  const keyring = keyringOf(database);
  const retired = await database.query<{ id: string }>(
    'UPDATE data_keys SET retired_at = now() WHERE company_id = $1 AND retired_at IS NULL RETURNING id',
    [companyId],
  );
  keyring.forget(retired.map((row) => row.id));
  const { id: newKeyId } = await keyring.activeKey(companyId);
  await sleep(options.graceMs ?? ROTATION_GRACE_MS);

  const values = await resealColumns(database, { companyId, mode: 'rotate' });
  const files = await resealFiles(
    { database, fileStore },
    await companyFiles(database, companyId),
    companyId,
    (header) => header?.version === 2 && header.keyId === newKeyId,
  );
  const deleted = await database.query<{ id: string }>(
    'DELETE FROM data_keys WHERE company_id = $1 AND retired_at IS NOT NULL RETURNING id',
    [companyId],
  );
  keyring.forget(deleted.map((row) => row.id));
  return {
    companyName: name,
    newKeyId,
    values,
    files: files.resealed,
    unreadable: files.unreadable,
    retiredKeys: deleted.length,
  };
}

/**
 * Crypto-erase: deletes every data key of the company, so its sealed contents and files — in the database,
 * the file store and every backup — can never be read again. Other companies keep theirs. Running servers
 * stop reading the data within a minute (their key cache); new data of the company gets a new key.
 */
export async function eraseCompanyKeys(
  database: Database,
  companyId: string,
): Promise<{ companyName: string; erasedKeys: number }> {
  const name = await companyName(database, companyId);
  const deleted = await database.query<{ id: string }>(
    'DELETE FROM data_keys WHERE company_id = $1 RETURNING id',
    [companyId],
  );
  keyringOf(database).forget(deleted.map((row) => row.id));
  // The accused person's department is the one piece of a case kept in plaintext (for the statistics,
  // docs/decisions/0012): it goes with the keys. The statistics triggers move those cases to "not given".
  await database.query(
    "UPDATE reports SET accused_department = '' WHERE company_id = $1 AND accused_department <> ''",
    [companyId],
  );
  return { companyName: name, erasedKeys: deleted.length };
}

export interface UpgradeResult {
  /** One line per company, then the platform key's (files and mail of no company): what was rewritten. */
  scopes: { name: string; values: number; files: number; unreadable: number }[];
}

/**
 * `encryption:upgrade`: rewrites every value and file still in plaintext or in format v1 into format v2
 * (HKDF-derived keys, bound to table, column and row id, or to the file id), under the active key of its
 * company, company by company and then the platform key's. No key changes, so unlike a rotation nothing waits:
 * values and files written meanwhile are already v2, and each rewrite applies only if its row still holds what
 * was read. Running it again finds nothing left to do.
 */
export async function upgradeEncryption(deps: Deps): Promise<UpgradeResult> {
  const { database } = deps;
  const companies = await database.query<{ id: string; name: string }>(
    'SELECT id, name FROM companies ORDER BY created_at, id',
  );
  const isV2 = (header: { version: 1 | 2 } | null) => header?.version === 2;
  const scopes: UpgradeResult['scopes'] = [];
  for (const company of companies) {
    const values = await resealColumns(database, { companyId: company.id, mode: 'upgrade' });
    const files = await resealFiles(deps, await companyFiles(database, company.id), company.id, isV2);
    scopes.push({ name: company.name, values, files: files.resealed, unreadable: files.unreadable });
  }
  const values = await resealColumns(database, { companyId: null, mode: 'upgrade' });
  const platformFiles = await database.query<{ id: string; storage_key: string }>(
    `SELECT t.id, t.storage_key FROM files t WHERE ${FILE_COMPANY} IS NULL`,
  );
  const files = await resealFiles(deps, platformFiles, null, isV2);
  scopes.push({ name: '(platform)', values, files: files.resealed, unreadable: files.unreadable });
  return { scopes };
}
