import type { Database } from '../db/client.ts';
import { DataErasedError, keyringOf, openBytes, sealBytes } from './keyring.ts';

/**
 * Every column sealed at rest, with the row's way to its company (see docs/decisions/0004). The name is also
 * the authenticated data of each value, so a value moved to another column (an internal note into the note
 * for the reporter) no longer opens.
 */
export const SEALED_COLUMNS = {
  'reports.form': { table: 'reports', column: 'form', json: true, reportIdColumn: 'id' },
  'statements.form': { table: 'statements', column: 'form', json: true, reportIdColumn: 'report_id' },
  'report_messages.body': {
    table: 'report_messages',
    column: 'body',
    json: false,
    reportIdColumn: 'report_id',
  },
  'report_status_history.note_for_reporter': {
    table: 'report_status_history',
    column: 'note_for_reporter',
    json: false,
    reportIdColumn: 'report_id',
  },
  'report_status_history.internal_note': {
    table: 'report_status_history',
    column: 'internal_note',
    json: false,
    reportIdColumn: 'report_id',
  },
  'protective_measures.detail': {
    table: 'protective_measures',
    column: 'detail',
    json: false,
    reportIdColumn: 'report_id',
  },
  'protective_measures.reason': {
    table: 'protective_measures',
    column: 'reason',
    json: false,
    reportIdColumn: 'report_id',
  },
  'reports.contact_email': {
    table: 'reports',
    column: 'contact_email',
    json: false,
    reportIdColumn: 'id',
  },
} as const;

/**
 * Sealed values that live only briefly and are never re-sealed by a key rotation: an anonymous draft's
 * answer kept for a retried submission (minutes), and a receipt waiting for its reporter (sealed with the
 * platform key, decision 0005).
 */
type TransientSealedField = 'intake_sessions.submission' | 'pending_receipts.payload';

export type SealedField = keyof typeof SEALED_COLUMNS | TransientSealedField;

/** `enc1:<data key id>:<base64 of iv | ciphertext | tag>` */
const PREFIX = 'enc1:';
const SEALED_PATTERN = /^enc1:([0-9a-f-]{36}):([A-Za-z0-9+/=]+)$/;

const aad = (field: SealedField, keyId: string) => `${field}:${keyId}`;

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && SEALED_PATTERN.test(value);
}

/** The id of the data key a value was sealed with; null for a value stored before encryption at rest. */
export function sealedKeyId(value: unknown): string | null {
  return typeof value === 'string' ? (SEALED_PATTERN.exec(value)?.[1] ?? null) : null;
}

/**
 * Seals text with the company's active data key. An empty string stays empty: it holds no content, and the
 * column defaults ('') need no key. Call it before opening a transaction (PGlite has one connection).
 */
export async function sealText(
  database: Database,
  companyId: string | null,
  field: SealedField,
  value: string,
): Promise<string> {
  if (value === '') return '';
  const { id, key } = await keyringOf(database).activeKey(companyId);
  return `${PREFIX}${id}:${sealBytes(key, Buffer.from(value, 'utf8'), aad(field, id)).toString('base64')}`;
}

/** Opens a sealed value; a value written before encryption at rest (migration 0005) is returned as it is. */
export async function openText(database: Database, field: SealedField, value: string): Promise<string> {
  const match = SEALED_PATTERN.exec(value);
  if (!match) return value;
  const keyId = match[1]!;
  const key = await keyringOf(database).keyById(keyId);
  return openBytes(key, Buffer.from(match[2]!, 'base64'), aad(field, keyId)).toString('utf8');
}

/** A JSON document sealed into the JSON string stored in a jsonb column. */
export function sealJson(
  database: Database,
  companyId: string | null,
  field: SealedField,
  value: unknown,
): Promise<string> {
  return sealText(database, companyId, field, JSON.stringify(value));
}

export async function openJson<T>(database: Database, field: SealedField, value: unknown): Promise<T> {
  return (isSealed(value) ? JSON.parse(await openText(database, field, value)) : value) as T;
}

/**
 * Re-seals, with the company's active key, every sealed column value not yet under it: all of a company's
 * values after a key rotation (`companyId`), or every value still in plaintext (`onlyPlaintext`). Each update
 * applies only if the value is still the one read, so a concurrent edit is never overwritten; it is picked up
 * by the next pass instead. Returns how many values were re-sealed.
 */
export async function resealColumns(
  database: Database,
  options: { companyId?: string; onlyPlaintext?: boolean; batchSize?: number },
): Promise<number> {
  let resealed = 0;
  type Column = keyof typeof SEALED_COLUMNS;
  for (const [field, spec] of Object.entries(SEALED_COLUMNS) as [Column, (typeof SEALED_COLUMNS)[Column]][]) {
    const value = spec.json ? `t.${spec.column} #>> '{}'` : `t.${spec.column}`;
    // Values whose key was erased stay as they are: nothing can open them any more.
    const erased: string[] = [];
    for (let round = 0; round < 1000; round++) {
      // Plaintext, or sealed under another key than the one now active.
      const candidates = await database.query<{ id: string; company_id: string; value: unknown }>(
        `SELECT t.id, r.company_id, t.${spec.column} AS value
           FROM ${spec.table} t JOIN reports r ON r.id = t.${spec.reportIdColumn}
          WHERE ($1::uuid IS NULL OR r.company_id = $1::uuid)
            AND ${spec.json ? `(jsonb_typeof(t.${spec.column}) <> 'string' OR` : `(t.${spec.column} <> '' AND`}
                 ${value} NOT LIKE (CASE WHEN $2::boolean THEN 'enc1:%'
                   ELSE 'enc1:' || coalesce((SELECT id::text FROM data_keys k
                     WHERE k.company_id = r.company_id AND k.retired_at IS NULL), '') || ':%' END))
            AND NOT (t.id = ANY($4::uuid[]))
          LIMIT $3`,
        [options.companyId ?? null, options.onlyPlaintext ?? false, options.batchSize ?? 200, erased],
      );
      if (candidates.length === 0) break;
      for (const row of candidates) {
        let plain: unknown;
        try {
          plain = spec.json
            ? await openJson(database, field, row.value)
            : await openText(database, field, row.value as string);
        } catch (error) {
          if (!(error instanceof DataErasedError)) throw error;
          erased.push(row.id);
          continue;
        }
        const sealed = spec.json
          ? await sealJson(database, row.company_id, field, plain)
          : await sealText(database, row.company_id, field, plain as string);
        const updated = await database.query(
          spec.json
            ? `UPDATE ${spec.table} SET ${spec.column} = $1::jsonb WHERE id = $2 AND ${spec.column} = $3::jsonb RETURNING id`
            : `UPDATE ${spec.table} SET ${spec.column} = $1 WHERE id = $2 AND ${spec.column} = $3 RETURNING id`,
          spec.json
            ? [JSON.stringify(sealed), row.id, JSON.stringify(row.value)]
            : [sealed, row.id, row.value],
        );
        resealed += updated.length;
      }
    }
  }
  return resealed;
}
