import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client.ts';
import {
  DataErasedError,
  deriveKey,
  keyringOf,
  keyringOfExecutor,
  openBytes,
  type QueryFunction,
  sealBytes,
} from './keyring.ts';

/** The company of a row whose table has a `report_id`. */
const VIA_REPORT = '(SELECT r.company_id FROM reports r WHERE r.id = t.report_id)';
/**
 * The company whose key seals a file's name, as for its bytes (company-keys.ts `companyFiles`): its owner's
 * (a user, an invitation's case, an intake session, an anonymous report), or that of a case citing it; none
 * (the platform key) for a user of no company yet.
 */
export const FILE_COMPANY = `coalesce(
  (SELECT u.company_id FROM users u WHERE u.id = t.owner_user_id),
  (SELECT r.company_id FROM invitations i JOIN reports r ON r.id = i.report_id WHERE i.id = t.owner_invitation_id),
  (SELECT s.company_id FROM intake_sessions s WHERE s.id = t.owner_intake_id),
  (SELECT r.company_id FROM reports r WHERE r.id = t.owner_report_id),
  (SELECT r.company_id FROM report_files rf JOIN reports r ON r.id = rf.report_id WHERE rf.file_id = t.id LIMIT 1))`;

type ColumnSpec = {
  table: string;
  column: string;
  json: boolean;
  /** SQL giving the company id of the row `t`, whose key seals the value (NULL: the platform key). */
  company: string;
  /** The column holding the value's blind index (see `blindIndex`), recomputed whenever the value is re-sealed. */
  index?: string;
};

/**
 * Every column sealed at rest, with the row's way to its company (see docs/decisions/0004). The name, with the
 * row's id, is the authenticated data of each value: a value moved to another column (an internal note into
 * the note for the reporter) or to another row (one case's accused person onto another case) no longer opens.
 */
export const SEALED_COLUMNS = {
  'reports.form': { table: 'reports', column: 'form', json: true, company: 't.company_id' },
  'reports.accused_name': {
    table: 'reports',
    column: 'accused_name',
    json: false,
    company: 't.company_id',
    index: 'accused_name_index',
  },
  'reports.accused_email': {
    table: 'reports',
    column: 'accused_email',
    json: false,
    company: 't.company_id',
    index: 'accused_email_index',
  },
  'statements.form': { table: 'statements', column: 'form', json: true, company: VIA_REPORT },
  'report_messages.body': { table: 'report_messages', column: 'body', json: false, company: VIA_REPORT },
  'report_status_history.note_for_reporter': {
    table: 'report_status_history',
    column: 'note_for_reporter',
    json: false,
    company: VIA_REPORT,
  },
  'report_status_history.internal_note': {
    table: 'report_status_history',
    column: 'internal_note',
    json: false,
    company: VIA_REPORT,
  },
  'protective_measures.detail': {
    table: 'protective_measures',
    column: 'detail',
    json: false,
    company: VIA_REPORT,
  },
  'protective_measures.reporter_opinion': {
    table: 'protective_measures',
    column: 'reporter_opinion',
    json: false,
    company: VIA_REPORT,
  },
  'reports.outcome_summary': {
    table: 'reports',
    column: 'outcome_summary',
    json: false,
    company: 't.company_id',
  },
  'protective_measures.reason': {
    table: 'protective_measures',
    column: 'reason',
    json: false,
    company: VIA_REPORT,
  },
  'reports.contact_email': {
    table: 'reports',
    column: 'contact_email',
    json: false,
    company: 't.company_id',
  },
  'invitations.name': { table: 'invitations', column: 'name', json: false, company: VIA_REPORT },
  'invitations.email': { table: 'invitations', column: 'email', json: false, company: VIA_REPORT },
  'files.original_name': { table: 'files', column: 'original_name', json: false, company: FILE_COMPANY },
  /**
   * The SHA-256 of the stored (metadata-free) bytes. Stripping is deterministic, so in the clear it would join
   * an anonymous report's evidence to the same file once uploaded under an account (docs/decisions/0029).
   */
  'files.sha256': { table: 'files', column: 'sha256', json: false, company: FILE_COMPANY },
  'mail_outbox.to': { table: 'mail_outbox', column: '"to"', json: false, company: 'NULL::uuid' },
  'mail_outbox.subject': { table: 'mail_outbox', column: 'subject', json: false, company: 'NULL::uuid' },
  'mail_outbox.text': { table: 'mail_outbox', column: 'text', json: false, company: 'NULL::uuid' },
  'mail_outbox.html': { table: 'mail_outbox', column: 'html', json: false, company: 'NULL::uuid' },
} as const satisfies Record<string, ColumnSpec>;

/**
 * Sealed values never re-sealed by a company's key rotation: an anonymous draft's answer kept for a retried
 * submission (minutes), a receipt waiting for its reporter (platform key, decision 0005), and a TOTP secret
 * (platform key: it belongs to a person, not to a company's cases).
 */
type TransientSealedField = 'intake_sessions.submission' | 'pending_receipts.payload' | 'mfa_totp.secret';

export type SealedField = keyof typeof SEALED_COLUMNS | TransientSealedField;

/**
 * v2: `enc2:<data key id>:<base64 of iv | ciphertext | tag>`, AES-256-GCM under a key derived from the data key
 * with HKDF (purpose `sealed-value:v2`), authenticated data `v2:<table.column>:<row id>:<data key id>`.
 * v1 (`enc1:`, the data key itself, authenticated data `<table.column>:<data key id>`) is still read.
 */
const V2_PREFIX = 'enc2:';
const SEALED_PATTERN = /^enc([12]):([0-9a-f-]{36}):([A-Za-z0-9+/=]+)$/;
const PLATFORM_SCOPE = '00000000-0000-0000-0000-000000000000';
const VALUE_PURPOSE = 'sealed-value:v2';

const aadV1 = (field: SealedField, keyId: string) => `${field}:${keyId}`;
const aadV2 = (field: SealedField, rowId: string, keyId: string) => `v2:${field}:${rowId}:${keyId}`;

/** Thrown under ENCRYPTION_REQUIRE_SEALED for a value that is not sealed. Names the column, never the value. */
export class UnsealedValueError extends Error {
  constructor(field: SealedField) {
    super(`a value of ${field} is not sealed, and ENCRYPTION_REQUIRE_SEALED refuses plaintext`);
  }
}

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && SEALED_PATTERN.test(value);
}

/** The id of the data key a value was sealed with; null for a value stored before encryption at rest. */
export function sealedKeyId(value: unknown): string | null {
  return typeof value === 'string' ? (SEALED_PATTERN.exec(value)?.[2] ?? null) : null;
}

/** 1 or 2 for a sealed value, null for plaintext. */
export function sealedVersion(value: unknown): 1 | 2 | null {
  const version = typeof value === 'string' ? SEALED_PATTERN.exec(value)?.[1] : undefined;
  return version ? (Number(version) as 1 | 2) : null;
}

function seal(field: SealedField, rowId: string, id: string, dataKey: Buffer, value: string): string {
  const sealed = sealBytes(
    deriveKey(dataKey, VALUE_PURPOSE),
    Buffer.from(value, 'utf8'),
    aadV2(field, rowId, id),
  );
  return `${V2_PREFIX}${id}:${sealed.toString('base64')}`;
}

/**
 * Seals text for one column of one row with the company's active data key. An empty string stays empty: it
 * holds no content, and the column defaults ('') need no key. Call it before opening a transaction (PGlite has
 * one connection), with the row's id made in advance (`randomUUID()`) for a row not yet inserted.
 */
export async function sealText(
  database: Database,
  companyId: string | null,
  field: SealedField,
  rowId: string,
  value: string,
): Promise<string> {
  if (value === '') return '';
  const { id, key } = await keyringOf(database).activeKey(companyId);
  return seal(field, rowId, id, key, value);
}

/** Runs raw SQL with `$n` parameters through a drizzle transaction. */
function queryThrough(executor: Pick<Db, 'execute'>): QueryFunction {
  return async (text, params) => {
    const parts = text.split(/\$(\d+)/);
    let statement = sql.raw(parts[0]!);
    for (let i = 1; i < parts.length; i += 2) {
      statement = sql`${statement}${params[Number(parts[i]) - 1]}${sql.raw(parts[i + 1]!)}`;
    }
    return ((await executor.execute(statement)) as unknown as { rows: unknown[] }).rows;
  };
}

/**
 * `sealText` from inside an open transaction, for the few writes that only happen there, such as a mail queued
 * with the change that causes it: the key is looked up through the transaction itself.
 */
export async function sealTextIn(
  tx: Pick<Db, 'execute'>,
  companyId: string | null,
  field: SealedField,
  rowId: string,
  value: string,
): Promise<string> {
  if (value === '') return '';
  const { id, key } = await keyringOfExecutor(tx).activeKey(companyId, queryThrough(tx));
  return seal(field, rowId, id, key, value);
}

/**
 * Opens a sealed value of a column of a row. A value written before encryption at rest (migration 0005) is
 * returned as it is, unless ENCRYPTION_REQUIRE_SEALED; DataErasedError once its company's key was erased.
 */
export async function openText(
  database: Database,
  field: SealedField,
  rowId: string,
  value: string,
): Promise<string> {
  const match = SEALED_PATTERN.exec(value);
  const keyring = keyringOf(database);
  if (!match) {
    if (value !== '' && keyring.requireSealed) throw new UnsealedValueError(field);
    return value;
  }
  const [, version, keyId, body] = match as unknown as [string, string, string, string];
  const key = await keyring.keyById(keyId);
  const sealed = Buffer.from(body, 'base64');
  return (
    version === '1'
      ? openBytes(key, sealed, aadV1(field, keyId))
      : openBytes(deriveKey(key, VALUE_PURPOSE), sealed, aadV2(field, rowId, keyId))
  ).toString('utf8');
}

/** Shown in a list in place of a sealed value whose company's key was erased (crypto-erase). */
export const ERASED_PLACEHOLDER = '(영구 삭제됨)';

/** `openText`, or `placeholder` when the company's key was erased: for lists that must still render. */
export async function openTextOr(
  database: Database,
  field: SealedField,
  rowId: string,
  value: string,
  placeholder: string,
): Promise<string> {
  try {
    return await openText(database, field, rowId, value);
  } catch (error) {
    if (error instanceof DataErasedError) return placeholder;
    throw error;
  }
}

/** A JSON document sealed into the JSON string stored in a jsonb column. */
export function sealJson(
  database: Database,
  companyId: string | null,
  field: SealedField,
  rowId: string,
  value: unknown,
): Promise<string> {
  return sealText(database, companyId, field, rowId, JSON.stringify(value));
}

export async function openJson<T>(
  database: Database,
  field: SealedField,
  rowId: string,
  value: unknown,
): Promise<T> {
  if (isSealed(value)) return JSON.parse(await openText(database, field, rowId, value)) as T;
  if (keyringOf(database).requireSealed) throw new UnsealedValueError(field);
  return value as T;
}

/**
 * The form a name is compared in: NFKC (full-width and compatibility forms folded), no whitespace at all, lower
 * case. "홍 길동", "홍길동 " and "ＨＯＮＧ gildong" meet their plain spellings.
 */
export function normalizeForIndex(value: string): string {
  return value.normalize('NFKC').replace(/\s+/g, '').toLowerCase();
}

const INDEX_PURPOSE = 'blind-index:v1';

function indexUnder(dataKey: Buffer, field: SealedField, value: string): string {
  return createHmac('sha256', deriveKey(dataKey, `${INDEX_PURPOSE}:${field}`))
    .update(normalizeForIndex(value), 'utf8')
    .digest('base64url');
}

/**
 * Seals a value together with its blind index: HMAC-SHA256 of the normalised value under a key derived (HKDF)
 * from the same data key, so equal names of one company meet while the index tells nothing without the key,
 * matches nothing of another company, and dies with the key at crypto-erase. Null for an empty value.
 */
export async function sealWithIndex(
  database: Database,
  companyId: string,
  field: SealedField,
  rowId: string,
  value: string,
): Promise<{ sealed: string; index: string | null }> {
  if (normalizeForIndex(value) === '')
    return { sealed: await sealText(database, companyId, field, rowId, value), index: null };
  const { id, key } = await keyringOf(database).activeKey(companyId);
  return { sealed: seal(field, rowId, id, key, value), index: indexUnder(key, field, value) };
}

/**
 * The blind-index values a search for `value` must match: one per data key the company still has, since
 * during a rotation rows are indexed under the old key until they are re-sealed. Empty when nothing can match.
 */
export async function blindIndexCandidates(
  database: Database,
  companyId: string,
  field: SealedField,
  value: string,
): Promise<string[]> {
  if (normalizeForIndex(value) === '') return [];
  const keys = await keyringOf(database).keysOf(companyId);
  return keys.map(({ key }) => indexUnder(key, field, value));
}

export type ResealMode =
  /** Only values stored in plaintext (before encryption at rest, or before a column was sealed). */
  | 'plaintext'
  /** Plaintext and format v1 values, into v2 (`encryption:upgrade`). */
  | 'upgrade'
  /** Every value not in v2 under the active key of its company (`company:rotate-key`). */
  | 'rotate';

/**
 * Re-seals column values in v2 with the active key of their company. `companyId` limits it to one company's
 * rows, and `null` to rows of the platform key (no company); without it, every row. Each update applies only if
 * the value is still the one read, so a concurrent edit is never overwritten; it is picked up by the next pass
 * instead. Values whose key was erased stay as they are. Returns how many values were re-sealed.
 */
export async function resealColumns(
  database: Database,
  options: { companyId?: string | null; mode: ResealMode; batchSize?: number },
): Promise<number> {
  let resealed = 0;
  const scoped = options.companyId !== undefined;
  for (const [field, spec] of Object.entries(SEALED_COLUMNS) as [SealedField, ColumnSpec][]) {
    const value = spec.json ? `t.${spec.column} #>> '{}'` : `t.${spec.column}`;
    const target =
      options.mode === 'plaintext'
        ? `'enc_:%'`
        : options.mode === 'upgrade'
          ? `'enc2:%'`
          : `'enc2:' || coalesce((SELECT id::text FROM data_keys k
               WHERE coalesce(k.company_id, '${PLATFORM_SCOPE}') = coalesce(c.company_id, '${PLATFORM_SCOPE}')
                 AND k.retired_at IS NULL), '') || ':%'`;
    // Values whose key was erased stay as they are: nothing can open them any more.
    const erased: string[] = [];
    for (let round = 0; round < 10_000; round++) {
      const candidates = await database.query<{ id: string; company_id: string | null; value: unknown }>(
        `SELECT t.id, c.company_id, t.${spec.column} AS value
           FROM ${spec.table} t CROSS JOIN LATERAL (SELECT ${spec.company} AS company_id) c
          WHERE (NOT $1::boolean OR c.company_id IS NOT DISTINCT FROM $2::uuid)
            AND ${spec.json ? `(jsonb_typeof(t.${spec.column}) <> 'string' OR` : `(t.${spec.column} <> '' AND`}
                 ${value} NOT LIKE ${target})
            AND NOT (t.id = ANY($4::uuid[]))
          LIMIT $3`,
        [scoped, options.companyId ?? null, options.batchSize ?? 200, erased],
      );
      if (candidates.length === 0) break;
      for (const row of candidates) {
        let plain: string;
        try {
          plain = spec.json
            ? JSON.stringify(await openJsonForReseal(database, field, row.id, row.value))
            : await openTextForReseal(database, field, row.id, row.value as string);
        } catch (error) {
          if (!(error instanceof DataErasedError)) throw error;
          erased.push(row.id);
          continue;
        }
        let sealed: string;
        let index: string | null = null;
        if (spec.index && row.company_id) {
          ({ sealed, index } = await sealWithIndex(database, row.company_id, field, row.id, plain));
        } else {
          sealed = await sealText(database, row.company_id, field, row.id, plain);
        }
        const updated = await database.query(
          `UPDATE ${spec.table} SET ${spec.column} = ${spec.json ? '$1::jsonb' : '$1'}
                  ${spec.index ? `, ${spec.index} = $4` : ''}
            WHERE id = $2 AND ${spec.column} = ${spec.json ? '$3::jsonb' : '$3'} RETURNING id`,
          [
            spec.json ? JSON.stringify(sealed) : sealed,
            row.id,
            spec.json ? JSON.stringify(row.value) : row.value,
            ...(spec.index ? [index] : []),
          ],
        );
        resealed += updated.length;
      }
    }
  }
  return resealed;
}

/** Plaintext is what re-sealing exists for, so ENCRYPTION_REQUIRE_SEALED does not stop it here. */
async function openTextForReseal(database: Database, field: SealedField, rowId: string, value: string) {
  return isSealed(value) ? openText(database, field, rowId, value) : value;
}

async function openJsonForReseal(database: Database, field: SealedField, rowId: string, value: unknown) {
  return isSealed(value) ? JSON.parse(await openText(database, field, rowId, value)) : value;
}
