import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, reportMessages, reports } from '../src/db/schema.ts';
import { eraseCompanyKeys, rotateCompanyKey } from '../src/domain/companies/company-keys.ts';
import { isSealed, resealColumns } from '../src/encryption/codec.ts';
import { DataErasedError, keyringOf } from '../src/encryption/keyring.ts';
import type { EncryptingFileStore } from '../src/storage/encrypting-file-store.ts';
import {
  createCompany,
  createManager,
  invitationTokenFor,
  inviteeClient,
  reportBody,
  upload,
} from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestClient, type TestContext } from './helpers.ts';

/** A marker that cannot occur by chance in ciphertext, base64 or any other stored byte. */
const SENTINEL = `PLAINTEXT-SENTINEL-${randomBytes(6).toString('hex')}`;
const sentinel = (what: string) => `${SENTINEL} ${what} 민감한 내용`;

let ctx: TestContext;
let companyA: string;
let companyB: string;
let reporterA: TestClient;
let managerA: TestClient;
let reporterB: TestClient;
let caseA: string;
let caseB: string;
let evidenceA: { id: string; sha256: string };
let evidenceB: { id: string };
const evidenceContent = Buffer.from(`증거 메모: ${sentinel('file')}\n`.repeat(3000));

const store = () => ctx.app.deps.fileStore as EncryptingFileStore;

/** Every table of the schema, every row, as PostgreSQL prints it: what a stolen database dump would show. */
async function dumpDatabase(): Promise<string> {
  const tables = await ctx.database.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  expect(tables.map((row) => row.table_name)).toEqual(expect.arrayContaining(['reports', 'statements']));
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const rows = await ctx.database.query<{ row: string }>(`SELECT t::text AS row FROM "${table_name}" t`);
    parts.push(...rows.map((row) => row.row));
  }
  return parts.join('\n');
}

/** Every stored file's raw bytes under DATA_DIR/files, temporary uploads included. */
function rawFiles(): Buffer[] {
  const root = path.join(ctx.config.dataDir, 'files');
  const found: Buffer[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push(fs.readFileSync(full));
    }
  };
  if (fs.existsSync(root)) walk(root);
  return found;
}

async function keyIdsOf(companyId: string): Promise<string[]> {
  const rows = await ctx.database.query<{ id: string }>('SELECT id FROM data_keys WHERE company_id = $1', [
    companyId,
  ]);
  return rows.map((row) => row.id);
}

beforeAll(async () => {
  ctx = await createTestApp();
  companyA = await createCompany(ctx, '에이 주식회사', 'a.example');
  companyB = await createCompany(ctx, '비 주식회사', 'b.example');
  reporterA = await registerAndLogin(ctx, 'reporter@a.example');
  managerA = await createManager(ctx, 'manager@a.example');
  reporterB = await registerAndLogin(ctx, 'reporter@b.example');

  evidenceA = (await upload(reporterA, '메모.txt', evidenceContent)).json();
  const filed = await reporterA.post(
    '/api/v1/report/',
    reportBody('formal', {
      acts: [
        { date: '2026-10-01', location: '회의실', description: sentinel('act'), evidences: [evidenceA.id] },
      ],
      harms: [{ type: 'mental', description: sentinel('harm'), evidences: null }],
      protection_requests: ['other'],
      protection_etc: sentinel('protection'),
    }),
  );
  expect(filed.statusCode).toBe(201);
  caseA = filed.json().id;

  expect(
    (await reporterA.post(`/api/v1/report/${caseA}/messages`, { body: sentinel('reporter message') }))
      .statusCode,
  ).toBe(201);
  expect(
    (await managerA.post(`/api/v1/manager/report/${caseA}/messages`, { body: sentinel('manager message') }))
      .statusCode,
  ).toBe(201);
  const moved = await managerA.request({
    method: 'PATCH',
    url: `/api/v1/manager/report/${caseA}`,
    json: {
      status: 'investigating',
      note_for_reporter: sentinel('note'),
      internal_note: sentinel('internal'),
    },
  });
  expect(moved.statusCode).toBe(200);
  const measure = await managerA.post(`/api/v1/manager/report/${caseA}/measures`, {
    measure: 'paid_leave',
    detail: sentinel('measure detail'),
  });
  expect(measure.statusCode).toBe(201);
  const decided = await managerA.request({
    method: 'PATCH',
    url: `/api/v1/manager/report/${caseA}/measures/${measure.json().id}`,
    json: { decision: 'refused', reason: sentinel('measure reason') },
  });
  expect(decided.statusCode).toBeLessThan(300);

  // The accused person's statement, with a file of their own.
  expect(
    (
      await managerA.post(`/api/v1/manager/report/${caseA}/invitations`, {
        invitations: [{ kind: 'defendant' }],
        share_evidence: false,
      })
    ).statusCode,
  ).toBe(201);
  const invitee = inviteeClient(ctx, await invitationTokenFor(ctx, 'accused@a.example', 'defendant'));
  expect((await invitee.post('/api/v1/invitation/acknowledge')).statusCode).toBe(200);
  const inviteeFile = (await upload(invitee, '반론.txt', Buffer.from(sentinel('invitee file')))).json();
  const statement = await invitee.post('/api/v1/report/', {
    report_type: 'defendant',
    reporter_name: '박행위',
    defendant_truth: 'partly_admit',
    defendant_opinion: sentinel('statement'),
    defendant_evidences: [inviteeFile.id],
  });
  expect(statement.statusCode).toBe(201);

  evidenceB = (await upload(reporterB, 'b.txt', Buffer.from(`B 회사 ${sentinel('company b file')}`))).json();
  const filedB = await reporterB.post(
    '/api/v1/report/',
    reportBody('brief', {
      acts: [
        {
          date: '2026-10-02',
          location: '사무실',
          description: sentinel('company b act'),
          evidences: [evidenceB.id],
        },
      ],
    }),
  );
  expect(filedB.statusCode).toBe(201);
  caseB = filedB.json().id;
});
afterAll(() => ctx.close());

async function expectCaseAReadable() {
  const own = (await reporterA.get(`/api/v1/report/${caseA}`)).json();
  expect(own.form.acts[0].description).toBe(sentinel('act'));
  expect(own.form.harms[0].description).toBe(sentinel('harm'));
  expect(own.history.map((entry: { note_for_reporter: string }) => entry.note_for_reporter)).toContain(
    sentinel('note'),
  );
  expect(own.measures.map((entry: { detail: string }) => entry.detail)).toContain(sentinel('protection'));
  const messages = (await reporterA.get(`/api/v1/report/${caseA}/messages`)).json();
  expect(messages.map((message: { body: string }) => message.body)).toEqual([
    sentinel('reporter message'),
    sentinel('manager message'),
  ]);
  const managed = (await managerA.get(`/api/v1/manager/report/${caseA}`)).json();
  expect(managed.form.protection_etc).toBe(sentinel('protection'));
  expect(managed.history.map((entry: { internal_note: string }) => entry.internal_note)).toContain(
    sentinel('internal'),
  );
  expect(managed.measures.map((entry: { reason: string }) => entry.reason)).toContain(
    sentinel('measure reason'),
  );
  expect(managed.messages.map((message: { body: string }) => message.body)).toContain(
    sentinel('manager message'),
  );
  expect(managed.statements[0].form.defendant_opinion).toBe(sentinel('statement'));
  const download = await managerA.get(`/api/v1/file/${evidenceA.id}/`);
  expect(download.statusCode).toBe(200);
  expect(download.rawPayload.equals(evidenceContent)).toBe(true);
  // The receipt a reporter or court can check is of the plaintext, not of what is stored.
  expect(createHash('sha256').update(download.rawPayload).digest('hex')).toBe(evidenceA.sha256);
}

describe('encryption at rest', () => {
  it('leaves no plaintext in any table or stored file, while the API returns it', async () => {
    const dump = await dumpDatabase();
    expect(dump).not.toContain(SENTINEL);
    expect(dump).toContain('enc2:');
    expect(dump).not.toContain('enc1:');
    // The columns sealed since (R-SEC-5): the accused person's name, file names, the invitee's address.
    for (const plain of ['박행위', '메모.txt', '반론.txt', 'accused@a.example'])
      expect(dump.split('\n').filter((line) => line.includes(plain))).toEqual([]);
    const [row] = await ctx.database.db
      .select({ form: reports.form })
      .from(reports)
      .where(eq(reports.id, caseA));
    expect(isSealed(row!.form)).toBe(true);

    const stored = rawFiles();
    expect(stored.length).toBeGreaterThanOrEqual(3);
    for (const bytes of stored) {
      expect(bytes.includes(SENTINEL)).toBe(false);
      expect(bytes.subarray(0, 8).toString()).toBe('ANSIMENC');
    }
    // Searching by the accused person's whole name still works, through its blind index (decision 0004).
    const found = (await managerA.get('/api/v1/manager/report/?q=박행위')).json();
    expect(found.results.map((result: { id: string }) => result.id)).toContain(caseA);
    await expectCaseAReadable();
  });

  it('rotates one company key: everything re-encrypted under the new key and still readable', async () => {
    const [oldKeyA] = await keyIdsOf(companyA);
    const keysB = await keyIdsOf(companyB);
    const [before] = await ctx.database.db.select().from(files).where(eq(files.id, evidenceA.id));
    const result = await rotateCompanyKey({ database: ctx.database, fileStore: store() }, companyA, {
      graceMs: 0,
    });
    expect(result.values).toBeGreaterThanOrEqual(9);
    expect(result.files).toBe(2);
    expect(result.retiredKeys).toBe(1);

    const keysA = await keyIdsOf(companyA);
    expect(keysA).toEqual([result.newKeyId]);
    expect(keysA).not.toContain(oldKeyA);
    expect(await keyIdsOf(companyB)).toEqual(keysB);
    const dump = await dumpDatabase();
    expect(dump).not.toContain(`enc2:${oldKeyA}`);
    expect(dump).not.toContain(SENTINEL);
    const [after] = await ctx.database.db.select().from(files).where(eq(files.id, evidenceA.id));
    expect(after!.storageKey).not.toBe(before!.storageKey);
    expect(await store().keyIdOf(after!.storageKey)).toBe(result.newKeyId);
    expect(
      await store()
        .keyIdOf(before!.storageKey)
        .catch(() => 'gone'),
    ).toBe('gone');
    await expectCaseAReadable();
  });

  it('seals values stored before encryption at rest, and reads them meanwhile', async () => {
    await ctx.database.db
      .insert(reportMessages)
      .values({ reportId: caseB, authorKind: 'reporter', body: '암호화 이전에 저장된 메시지' });
    const before = (await reporterB.get(`/api/v1/report/${caseB}/messages`)).json();
    expect(before.map((message: { body: string }) => message.body)).toContain('암호화 이전에 저장된 메시지');
    expect(await resealColumns(ctx.database, { mode: 'plaintext' })).toBe(1);
    expect(await dumpDatabase()).not.toContain('암호화 이전에 저장된 메시지');
    const after = (await reporterB.get(`/api/v1/report/${caseB}/messages`)).json();
    expect(after).toEqual(before);
  });

  it('stores an upload when the active key must be read from the database first', async () => {
    // The key lookup once ran inside the transaction that records the file; on PGlite (one connection) it
    // then waited on that transaction for ever whenever the active key was not cached.
    keyringOf(ctx.database).forget([]);
    const stored = await Promise.race([
      upload(reporterB, '추가 증거.txt', Buffer.from('캐시 없이 올린 증거')),
      new Promise<'hang'>((resolve) => setTimeout(() => resolve('hang'), 120_000).unref()),
    ]);
    expect(stored).not.toBe('hang');
    if (stored === 'hang') return;
    expect(stored.statusCode).toBe(201);
    const download = await reporterB.get(`/api/v1/file/${stored.json().id}/`);
    expect(download.body).toBe('캐시 없이 올린 증거');
  });

  it('erases one company: its data is unreadable for good, another company keeps its own', async () => {
    const erased = await eraseCompanyKeys(ctx.database, companyA);
    expect(erased.erasedKeys).toBe(1);

    const own = await reporterA.get(`/api/v1/report/${caseA}`);
    expect(own.statusCode).toBe(410);
    expect(own.json().code).toBe('DATA_ERASED');
    expect((await managerA.get(`/api/v1/manager/report/${caseA}`)).statusCode).toBe(410);
    expect((await reporterA.get(`/api/v1/report/${caseA}/messages`)).statusCode).toBe(410);
    const [fileRow] = await ctx.database.db.select().from(files).where(eq(files.id, evidenceA.id));
    await expect(
      new Promise((resolve, reject) => {
        const stream = store().read(fileRow!.storageKey, fileRow!.id);
        stream.on('data', () => reject(new Error('released bytes of an erased file')));
        stream.on('error', reject);
        stream.on('end', resolve);
      }),
    ).rejects.toBeInstanceOf(DataErasedError);

    const other = (await reporterB.get(`/api/v1/report/${caseB}`)).json();
    expect(other.form.acts[0].description).toBe(sentinel('company b act'));
    const download = await reporterB.get(`/api/v1/file/${evidenceB.id}/`);
    expect(download.statusCode).toBe(200);
    expect(download.body).toContain(sentinel('company b file'));

    // The company goes on: a new report gets a new key.
    const fresh = await reporterA.post('/api/v1/report/', reportBody('brief'));
    expect(fresh.statusCode).toBe(201);
    expect((await reporterA.get(`/api/v1/report/${fresh.json().id}`)).json().form.perpetrator_name).toBe(
      '박행위',
    );
    expect(await keyIdsOf(companyA)).toHaveLength(1);
  });
});
