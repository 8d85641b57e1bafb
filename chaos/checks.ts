// What must hold after every fault, read straight from the database and the file store.

import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export async function sql<T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  // A connection the stopped cluster drops is the fault under test; the query's own rejection reports it.
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

const KEY = /^[\w-]{43}$/;

export interface FileStoreState {
  /** Bytes in the store that no `files` row names. */
  bytesWithoutRow: number;
  /** `files` rows whose bytes are missing. */
  rowsWithoutBytes: number;
  /** Upload parts left in the temporary folder (an upload cut by a kill). */
  temporaryParts: number;
  rows: number;
}

export async function fileStoreState(url: string, dataDir: string): Promise<FileStoreState> {
  const root = path.join(dataDir, 'files');
  const onDisk = new Set<string>();
  if (fs.existsSync(root)) {
    for (const dir of fs.readdirSync(root, { withFileTypes: true })) {
      if (!dir.isDirectory() || dir.name === '.tmp') continue;
      for (const name of fs.readdirSync(path.join(root, dir.name))) if (KEY.test(name)) onDisk.add(name);
    }
  }
  const temporaryDir = path.join(root, '.tmp');
  const temporaryParts = fs.existsSync(temporaryDir) ? fs.readdirSync(temporaryDir).length : 0;
  const rows = await sql<{ storage_key: string }>(url, 'SELECT storage_key FROM files');
  const inDb = new Set(rows.map((row) => row.storage_key));
  return {
    bytesWithoutRow: [...onDisk].filter((key) => !inDb.has(key)).length,
    rowsWithoutBytes: [...inDb].filter((key) => !onDisk.has(key)).length,
    temporaryParts,
    rows: inDb.size,
  };
}

/** Moves the modification time of every upload part back by `ms`, as if that much time had passed. */
export function ageTemporaryParts(dataDir: string, ms: number): void {
  const temporaryDir = path.join(dataDir, 'files', '.tmp');
  if (!fs.existsSync(temporaryDir)) return;
  const then = new Date(Date.now() - ms);
  for (const name of fs.readdirSync(temporaryDir)) fs.utimesSync(path.join(temporaryDir, name), then, then);
}

export interface Acknowledged {
  key: string;
  id: string;
  fileId?: string;
}

export interface ReportState {
  /** Acknowledged reports that are not in the database (or not under their key). */
  lost: number;
  /** Reports beyond the first for one idempotency key. */
  duplicates: number;
  /** Keys that were sent but have no report at all. */
  missingKeys: number;
  /** Acknowledged reports citing an evidence file whose link to the report is missing. */
  evidenceLinksLost: number;
}

export async function reportState(
  url: string,
  sentKeys: string[],
  acknowledged: Acknowledged[],
): Promise<ReportState> {
  const perKey = await sql<{ key: string; n: string }>(
    url,
    `SELECT idempotency_key AS key, count(*) AS n FROM reports WHERE idempotency_key = ANY($1) GROUP BY 1`,
    [sentKeys],
  );
  const counts = new Map(perKey.map((row) => [row.key, Number(row.n)]));
  const found = await sql<{ id: string; key: string; files: string[] }>(
    url,
    `SELECT r.id, r.idempotency_key AS key,
            coalesce(array_agg(rf.file_id::text) FILTER (WHERE rf.file_id IS NOT NULL), '{}') AS files
       FROM reports r LEFT JOIN report_files rf ON rf.report_id = r.id
      WHERE r.id = ANY($1::uuid[]) GROUP BY r.id`,
    [acknowledged.map((ack) => ack.id)],
  );
  const byId = new Map(found.map((row) => [row.id, row]));
  let lost = 0;
  let evidenceLinksLost = 0;
  for (const ack of acknowledged) {
    const row = byId.get(ack.id);
    if (!row || row.key !== ack.key) lost += 1;
    else if (ack.fileId && !row.files.includes(ack.fileId)) evidenceLinksLost += 1;
  }
  return {
    lost,
    duplicates: [...counts.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0),
    missingKeys: sentKeys.filter((key) => !counts.has(key)).length,
    evidenceLinksLost,
  };
}

export interface OutboxState {
  total: number;
  sent: number;
  pending: number;
  failed: number;
  /** Sent rows whose Message-ID never reached the SMTP server. */
  sentButNotReceived: number;
  /** Rows delivered more than once (at-least-once delivery after a crash mid-send). */
  redelivered: number;
}

export async function outboxState(
  url: string,
  received: Map<string, number>,
  host: string,
  where = 'true',
  params: unknown[] = [],
): Promise<OutboxState> {
  const rows = await sql<{ id: string; status: string }>(
    url,
    `SELECT id, status FROM mail_outbox WHERE ${where}`,
    params,
  );
  const state: OutboxState = {
    total: rows.length,
    sent: 0,
    pending: 0,
    failed: 0,
    sentButNotReceived: 0,
    redelivered: 0,
  };
  for (const row of rows) {
    const times = received.get(`<${row.id}@${host}>`) ?? 0;
    if (row.status === 'sent') state.sent += 1;
    else if (row.status === 'pending') state.pending += 1;
    else state.failed += 1;
    if (row.status === 'sent' && times === 0) state.sentButNotReceived += 1;
    if (times > 1) state.redelivered += 1;
  }
  return state;
}

/** Polls `read` until `done` holds or `boundMs` passes; returns the last value and how long it took. */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  boundMs: number,
): Promise<{ value: T; ms: number; met: boolean }> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    const ms = Date.now() - started;
    if (done(value)) return { value, ms, met: true };
    if (ms >= boundMs) return { value, ms, met: false };
    await sleep(250);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
