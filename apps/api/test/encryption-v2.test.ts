import { createCipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, invitations, reportMessages, reports } from '../src/db/schema.ts';
import {
  eraseCompanyKeys,
  rotateCompanyKey,
  upgradeEncryption,
} from '../src/domain/companies/company-keys.ts';
import {
  ERASED_PLACEHOLDER,
  normalizeForIndex,
  openJson,
  openText,
  type SealedField,
  sealedKeyId,
  sealedVersion,
  UnsealedValueError,
} from '../src/encryption/codec.ts';
import { DataErasedError, keyringOf, sealBytes } from '../src/encryption/keyring.ts';
import { enqueueMail } from '../src/mail/outbox.ts';
import type { EncryptingFileStore } from '../src/storage/encrypting-file-store.ts';
import { createDiskFileStore } from '../src/storage/file-store.ts';
import {
  createCompany,
  createManager,
  invitationTokenFor,
  inviteeClient,
  reportBody,
  upload,
} from './fixtures.ts';
import {
  createTestApp,
  createTestDatabase,
  mailsTo,
  registerAndLogin,
  type TestClient,
  type TestContext,
} from './helpers.ts';

let ctx: TestContext;
let companyA: string;
let companyB: string;
let reporterA: TestClient;
let managerA: TestClient;
let reporterB: TestClient;
let managerB: TestClient;

const store = () => ctx.app.deps.fileStore as EncryptingFileStore;

async function file(client: TestClient, accused: string, extra: Record<string, unknown> = {}) {
  const response = await client.post(
    '/api/v1/report/',
    reportBody('brief', { perpetrator_name: accused, ...extra }),
  );
  expect(response.statusCode).toBe(201);
  return response.json().id as string;
}

async function reportRow(id: string) {
  const [row] = await ctx.database.db.select().from(reports).where(eq(reports.id, id));
  return row!;
}

async function searchIds(client: TestClient, q: string): Promise<string[]> {
  const response = await client.get(`/api/v1/manager/report/?q=${encodeURIComponent(q)}`);
  expect(response.statusCode).toBe(200);
  return response.json().results.map((row: { id: string }) => row.id);
}

/** A value as format v1 sealed it: the data key itself, bound to the column and key id only. */
async function sealV1(companyId: string, field: SealedField, value: string): Promise<string> {
  const { id, key } = await keyringOf(ctx.database).activeKey(companyId);
  return `enc1:${id}:${sealBytes(key, Buffer.from(value, 'utf8'), `${field}:${id}`).toString('base64')}`;
}

/** A file as format v1 wrote it, put straight into the disk store under the app's encrypting wrapper. */
async function storeV1File(companyId: string, content: Buffer): Promise<string> {
  const { id, key } = await keyringOf(ctx.database).activeKey(companyId);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(64 * 1024);
  const prefix = randomBytes(8);
  const header = Buffer.concat([
    Buffer.from('ANSIMENC'),
    Buffer.from([1]),
    Buffer.from(id.replace(/-/g, ''), 'hex'),
    prefix,
    size,
  ]);
  const cipher = createCipheriv('aes-256-gcm', key, Buffer.concat([prefix, Buffer.alloc(4)]));
  cipher.setAAD(Buffer.concat([header, Buffer.from([1])]));
  const disk = createDiskFileStore(path.join(ctx.config.dataDir, 'files'));
  const temporary = await disk.temporaryPath();
  fs.writeFileSync(
    temporary,
    Buffer.concat([header, cipher.update(content), cipher.final(), cipher.getAuthTag()]),
  );
  return disk.commit(temporary);
}

beforeAll(async () => {
  ctx = await createTestApp();
  companyA = await createCompany(ctx, '에이 주식회사', 'a.example');
  companyB = await createCompany(ctx, '비 주식회사', 'b.example');
  reporterA = await registerAndLogin(ctx, 'reporter@a.example');
  managerA = await createManager(ctx, 'manager@a.example');
  reporterB = await registerAndLogin(ctx, 'reporter@b.example');
  managerB = await createManager(ctx, 'manager@b.example');
});
afterAll(() => ctx.close());

describe('encryption format v2', () => {
  it('binds each value to its row and column: swapped values do not open', async () => {
    const first = await file(reporterA, '정하나', { extra_info: '첫째 사건의 내용' });
    const second = await file(reporterA, '정두리', { extra_info: '둘째 사건의 내용' });
    const [one, two] = [await reportRow(first), await reportRow(second)];
    expect(sealedVersion(one.accusedName)).toBe(2);
    expect(await openText(ctx.database, 'reports.accused_name', first, one.accusedName)).toBe('정하나');

    // Another row of the same column, and another column of the same row, both refuse the value.
    await expect(openText(ctx.database, 'reports.accused_name', second, one.accusedName)).rejects.toThrow();
    await expect(openText(ctx.database, 'invitations.name', first, one.accusedName)).rejects.toThrow();
    await expect(openJson(ctx.database, 'reports.form', second, one.form)).rejects.toThrow();

    // Swapped in the database, the manager does not get the other case's content.
    await ctx.database.db.update(reports).set({ form: two.form }).where(eq(reports.id, first));
    const swapped = await managerA.get(`/api/v1/manager/report/${first}`);
    expect(swapped.statusCode).toBe(500);
    expect(swapped.body).not.toContain('둘째 사건의 내용');
    await ctx.database.db.update(reports).set({ form: one.form }).where(eq(reports.id, first));
    expect((await managerA.get(`/api/v1/manager/report/${first}`)).json().form.extra_info).toBe(
      '첫째 사건의 내용',
    );
  });

  it('binds a stored file to its row: the bytes of one file under another row do not open', async () => {
    const mine = (await upload(reporterA, '내_증거.txt', Buffer.from('첫째 파일'))).json();
    const other = (await upload(reporterA, '다른_증거.txt', Buffer.from('둘째 파일'))).json();
    const [mineRow] = await ctx.database.db.select().from(files).where(eq(files.id, mine.id));
    const [otherRow] = await ctx.database.db.select().from(files).where(eq(files.id, other.id));
    expect((await store().headerOf(mineRow!.storageKey))?.version).toBe(2);
    expect(sealedVersion(mineRow!.originalName)).toBe(2);
    // Storage keys are unique: the other row lets go of its key while this one takes it.
    await ctx.database.db
      .update(files)
      .set({ storageKey: 'k'.repeat(43) })
      .where(eq(files.id, other.id));
    await ctx.database.db
      .update(files)
      .set({ storageKey: otherRow!.storageKey, originalName: otherRow!.originalName })
      .where(eq(files.id, mine.id));
    const download = await reporterA.get(`/api/v1/file/${mine.id}/`);
    expect(download.statusCode).toBeGreaterThanOrEqual(500);
    expect(download.body).not.toContain('둘째 파일');
    await ctx.database.db
      .update(files)
      .set({ storageKey: mineRow!.storageKey, originalName: mineRow!.originalName })
      .where(eq(files.id, mine.id));
    await ctx.database.db
      .update(files)
      .set({ storageKey: otherRow!.storageKey })
      .where(eq(files.id, other.id));
    expect((await reporterA.get(`/api/v1/file/${mine.id}/`)).body).toBe('첫째 파일');
  });

  it('finds a case by the accused name through the blind index, in its own company only', async () => {
    const caseA = await file(reporterA, '김 철수');
    const caseB = await file(reporterB, '김철수');
    const [rowA, rowB] = [await reportRow(caseA), await reportRow(caseB)];
    // The same name gives unrelated index values in two companies, and neither is the name.
    expect(rowA.accusedNameIndex).toBeTruthy();
    expect(rowA.accusedNameIndex).not.toBe(rowB.accusedNameIndex);
    expect(JSON.stringify([rowA, rowB])).not.toContain('철수');

    for (const q of ['김철수', ' 김 철 수 ', '김　철수']) {
      const found = await searchIds(managerA, q);
      expect(found).toContain(caseA);
      expect(found).not.toContain(caseB);
    }
    expect(await searchIds(managerB, '김철수')).toEqual([caseB]);
    // Exact match on the whole normalised name: a part of it no longer matches.
    expect(await searchIds(managerA, '철수')).not.toContain(caseA);
    expect(normalizeForIndex(' Ｋim  Chul\tSoo ')).toBe('kimchulsoo');
    // The case-number search is unchanged.
    const caseNumber = (await managerA.get(`/api/v1/manager/report/${caseA}`)).json().case_number;
    expect(await searchIds(managerA, caseNumber)).toEqual([caseA]);

    // After a key rotation the index is under the new key, and the search still finds the case.
    await rotateCompanyKey({ database: ctx.database, fileStore: store() }, companyA, { graceMs: 0 });
    expect((await reportRow(caseA)).accusedNameIndex).not.toBe(rowA.accusedNameIndex);
    // So is the accused e-mail's, which a later handler's conflict check reads (the old key is gone).
    expect(rowA.accusedEmailIndex).toBeTruthy();
    expect((await reportRow(caseA)).accusedEmailIndex).not.toBe(rowA.accusedEmailIndex);
    expect((await reportRow(caseA)).accusedEmail).not.toBe(rowA.accusedEmail);
    expect(await searchIds(managerA, '김철수')).toContain(caseA);
  });

  it('refuses plaintext in a sealed column under ENCRYPTION_REQUIRE_SEALED', async () => {
    const caseB = await file(reporterB, '한결');
    const [message] = await ctx.database.db
      .insert(reportMessages)
      .values({ reportId: caseB, authorKind: 'reporter', body: '봉인되지 않은 평문 메시지' })
      .returning();
    expect(
      (await reporterB.get(`/api/v1/report/${caseB}/messages`)).json().map((m: { body: string }) => m.body),
    ).toContain('봉인되지 않은 평문 메시지');

    const strict = await createTestApp({
      database: ctx.database,
      config: { ENCRYPTION_REQUIRE_SEALED: 'true' },
    });
    try {
      expect(strict.config.ENCRYPTION_REQUIRE_SEALED).toBe(true);
      expect(keyringOf(ctx.database).requireSealed).toBe(true);
      await expect(
        openText(ctx.database, 'report_messages.body', message!.id, message!.body),
      ).rejects.toBeInstanceOf(UnsealedValueError);
      await expect(openJson(ctx.database, 'reports.form', caseB, { plain: 'form' })).rejects.toBeInstanceOf(
        UnsealedValueError,
      );
      // Empty values hold nothing and stay readable.
      expect(await openText(ctx.database, 'report_messages.body', message!.id, '')).toBe('');
      const refused = await reporterB.get(`/api/v1/report/${caseB}/messages`);
      expect(refused.statusCode).toBe(500);
      expect(refused.body).not.toContain('봉인되지 않은 평문');
    } finally {
      await strict.close();
      keyringOf(ctx.database).requireSealed = false;
    }
    await ctx.database.db.delete(reportMessages).where(eq(reportMessages.id, message!.id));
  });

  it('still reads v1 values and files, and encryption:upgrade rewrites them (and plaintext) to v2 once', async () => {
    const caseB = await file(reporterB, '윤바름');
    const v1Body = await sealV1(companyB, 'report_messages.body', 'v1 형식으로 저장된 메시지');
    await ctx.database.db
      .insert(reportMessages)
      .values({ reportId: caseB, authorKind: 'reporter', body: v1Body });
    // A row written before its column was sealed.
    await ctx.database.db
      .update(reports)
      .set({ accusedName: '윤바름', accusedNameIndex: null })
      .where(eq(reports.id, caseB));
    const evidence = (await upload(reporterB, '예전_증거.txt', Buffer.from('placeholder'))).json();
    const v1Key = await storeV1File(companyB, Buffer.from('v1 형식으로 저장된 증거'));
    const v1Name = await sealV1(companyB, 'files.original_name', '예전_증거.txt');
    await ctx.database.db
      .update(files)
      .set({ storageKey: v1Key, originalName: v1Name })
      .where(eq(files.id, evidence.id));

    const messages = (await reporterB.get(`/api/v1/report/${caseB}/messages`)).json();
    expect(messages.map((m: { body: string }) => m.body)).toContain('v1 형식으로 저장된 메시지');
    const download = await reporterB.get(`/api/v1/file/${evidence.id}/`);
    expect(download.body).toBe('v1 형식으로 저장된 증거');
    expect(download.headers['content-disposition']).toContain(encodeURIComponent('예전_증거.txt'));
    expect(await searchIds(managerB, '윤바름')).not.toContain(caseB);

    const first = await upgradeEncryption({ database: ctx.database, fileStore: store() });
    const scopeB = first.scopes.find((scope) => scope.name === '비 주식회사')!;
    expect(scopeB.values).toBe(3);
    expect(scopeB.files).toBe(1);
    expect(first.scopes.at(-1)!.name).toBe('(platform)');

    const dump = (
      await ctx.database.query<{ row: string }>(
        `SELECT t::text AS row FROM report_messages t UNION ALL SELECT t::text FROM files t
         UNION ALL SELECT t::text FROM reports t UNION ALL SELECT t::text FROM invitations t
         UNION ALL SELECT t::text FROM mail_outbox t`,
      )
    )
      .map((row) => row.row)
      .join('\n');
    expect(dump).not.toContain('enc1:');
    expect(dump).not.toContain('윤바름');
    const [fileRow] = await ctx.database.db.select().from(files).where(eq(files.id, evidence.id));
    expect(fileRow!.storageKey).not.toBe(v1Key);
    expect((await store().headerOf(fileRow!.storageKey))?.version).toBe(2);
    expect(
      await store()
        .keyIdOf(v1Key)
        .catch(() => 'removed'),
    ).toBe('removed');
    expect((await reporterB.get(`/api/v1/report/${caseB}/messages`)).json()).toEqual(messages);
    expect((await reporterB.get(`/api/v1/file/${evidence.id}/`)).body).toBe('v1 형식으로 저장된 증거');
    // The upgraded row got its blind index.
    expect(await searchIds(managerB, '윤바름')).toContain(caseB);

    const again = await upgradeEncryption({ database: ctx.database, fileStore: store() });
    expect(again.scopes.every((scope) => scope.values === 0 && scope.files === 0)).toBe(true);
  });

  it('makes accused names, file names and invitation names and e-mails unreadable at crypto-erase', async () => {
    const evidence = (await upload(reporterA, '홍길동_녹취.m4a.txt', Buffer.from('녹취 메모'))).json();
    const caseA = await file(reporterA, '서지움', {
      acts: [{ date: '2026-10-01', location: '회의실', description: '고성', evidences: [evidence.id] }],
    });
    const invited = await managerA.post(`/api/v1/manager/report/${caseA}/invitations`, {
      invitations: [{ kind: 'reference', name: '유증인', email: 'witness-erase@a.example' }],
      share_evidence: false,
    });
    expect(invited.statusCode).toBe(201);
    const [invitation] = await ctx.database.db
      .select()
      .from(invitations)
      .where(eq(invitations.reportId, caseA));
    expect(await openText(ctx.database, 'invitations.name', invitation!.id, invitation!.name)).toBe('유증인');
    expect(sealedVersion(invitation!.email)).toBe(2);
    const token = await invitationTokenFor(ctx, 'witness-erase@a.example', 'reference');
    const invitee = inviteeClient(ctx, token);
    const invitationPage = `/api/v1/invitation/${encodeURIComponent(token)}`;
    expect((await invitee.get(invitationPage)).json().invitee_name).toBe('유증인');

    await eraseCompanyKeys(ctx.database, companyA);

    // Where they are read: 410, as for the case itself.
    for (const field of ['invitations.name', 'invitations.email'] as const) {
      const value = field === 'invitations.name' ? invitation!.name : invitation!.email;
      await expect(openText(ctx.database, field, invitation!.id, value)).rejects.toBeInstanceOf(
        DataErasedError,
      );
    }
    expect((await invitee.get(invitationPage)).statusCode).toBe(410);
    expect((await managerA.get(`/api/v1/manager/report/${caseA}`)).statusCode).toBe(410);
    const download = await reporterA.get(`/api/v1/file/${evidence.id}/`);
    expect(download.statusCode).toBe(410);
    expect(download.json().code).toBe('DATA_ERASED');
    // Where a list must still render: the row stays, under a neutral placeholder.
    const list = (await managerA.get('/api/v1/manager/report/')).json();
    const listed = list.results.find((row: { id: string }) => row.id === caseA);
    expect(listed.accused_name).toBe(ERASED_PLACEHOLDER);
    expect(JSON.stringify(list)).not.toContain('서지움');
    const own = (await reporterA.get('/api/v1/file/')).json();
    expect(own.find((row: { id: string }) => row.id === evidence.id).name).toBe(ERASED_PLACEHOLDER);
    // And the blind index matches nothing any more.
    expect(await searchIds(managerA, '서지움')).toEqual([]);
    // Company B is untouched.
    expect(await searchIds(managerB, '김철수')).toHaveLength(1);
  });
});

describe('sealing inside a transaction', () => {
  it('does not remember a data key made by a transaction that then rolls back', async () => {
    const database = await createTestDatabase();
    try {
      const mail = { subject: '제목', text: '본문', html: '<p>본문</p>' };
      // The first mails of a fresh database: the platform key is made inside this transaction.
      await expect(
        database.db.transaction(async (tx) => {
          await enqueueMail(tx, 'reset_password', 'first@x.example', mail);
          await enqueueMail(tx, 'reset_password', 'second@x.example', mail);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await database.query('SELECT id FROM data_keys')).toEqual([]);
      // Sealed afterwards under a key that exists, not under the one the rollback took away (which this
      // process could still open from its cache for a minute, but no other process ever could).
      await enqueueMail(database.db, 'reset_password', 'third@x.example', mail);
      const [third] = await mailsTo(database, 'third@x.example');
      expect(third?.text).toBe('본문');
      const [row] = await database.query<{ to: string }>('SELECT "to" FROM mail_outbox');
      const keys = await database.query<{ id: string }>('SELECT id FROM data_keys');
      expect(keys.map((key) => key.id)).toEqual([sealedKeyId(row!.to)]);
    } finally {
      await database.close();
    }
  });
});

describe("a company's keys for a name search", () => {
  it('are the keys the company has now: none, the first one, the new one right after a rotation', async () => {
    const database = await createTestDatabase();
    try {
      const [company] = await database.query<{ id: string }>(
        "INSERT INTO companies (name, join_code) VALUES ('키 목록', 'JOIN-KEYS') RETURNING id",
      );
      const companyId = company!.id;
      const keyring = keyringOf(database);

      expect(await keyring.keysOf(companyId)).toEqual([]);
      const first = await keyring.activeKey(companyId);
      expect((await keyring.keysOf(companyId)).map((key) => key.id)).toEqual([first.id]);

      const { newKeyId } = await rotateCompanyKey({ database, fileStore: store() }, companyId, {
        graceMs: 0,
      });
      expect((await keyring.keysOf(companyId)).map((key) => key.id)).toEqual([newKeyId]);
    } finally {
      await database.close();
    }
  });
});
