import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CASE_REFERENCE_PATTERN } from '@ansim/shared/case-reference';
import { PDFDocument } from '@cantoo/pdf-lib';
import { eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, reports } from '../src/db/schema.ts';
import { openJson } from '../src/encryption/codec.ts';
import { BODY_TEXT, containsAuthor, docxWithAuthor, hwpxWithAuthor, pdfWithAuthor } from './documents.ts';
import { anonymousDraft, createCompany, createManager, jpegWithGps, reportBody, upload } from './fixtures.ts';
import { createTestApp, mailsTo, registerAndLogin, type TestClient, type TestContext } from './helpers.ts';

const MAX_FILE_BYTES = 64 * 1024;
let ctx: TestContext;
let reporter: TestClient;
let colleague: TestClient;
let outsider: TestClient;

beforeAll(async () => {
  ctx = await createTestApp({ config: { MAX_FILE_BYTES: String(MAX_FILE_BYTES) } });
  await createCompany(ctx, '에이 주식회사', 'a.example');
  await createCompany(ctx, '비 주식회사', 'b.example');
  reporter = await registerAndLogin(ctx, 'reporter@a.example');
  colleague = await registerAndLogin(ctx, 'colleague@a.example');
  outsider = await registerAndLogin(ctx, 'someone@nowhere.example');
  await createManager(ctx, 'manager@a.example');
});
afterAll(() => ctx.close());

const filesRoot = () => path.join(ctx.config.dataDir, 'files');
function storedFileCount(): number {
  if (!fs.existsSync(filesRoot())) return 0;
  return fs
    .readdirSync(filesRoot(), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== '.tmp')
    .reduce((sum, dir) => sum + fs.readdirSync(path.join(filesRoot(), dir.name)).length, 0);
}
function temporaryFileCount(): number {
  const dir = path.join(filesRoot(), '.tmp');
  return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
}

describe('evidence files', () => {
  it('stores an image without its EXIF, GPS or comments, and keeps its sha256', async () => {
    const response = await upload(reporter, '사진.jpg', jpegWithGps('SENTINEL-GPS-OWNER'), 'image/jpeg');
    expect(response.statusCode).toBe(201);
    const view = response.json();
    expect(view).toMatchObject({ name: '사진.jpg', content_type: 'image/jpeg' });
    const download = await reporter.get(`/api/v1/file/${view.id}/`);
    expect(download.statusCode).toBe(200);
    const bytes = download.rawPayload;
    expect(bytes.includes(Buffer.from('SENTINEL-GPS-OWNER'))).toBe(false);
    expect(bytes.includes(Buffer.from('GPSLatitude'))).toBe(false);
    expect(bytes.includes(Buffer.from('Exif'))).toBe(false);
    expect(bytes[0]).toBe(0xff);
    expect(bytes.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(view.sha256);
    expect(view.size).toBe(bytes.length);
  });

  it('stores Word, 한글 and PDF documents without their author, still readable', async () => {
    const documents = [
      [
        '회의록.docx',
        docxWithAuthor(),
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ],
      ['진술서.hwpx', hwpxWithAuthor(), 'application/hwp+zip'],
      ['회의록.pdf', await pdfWithAuthor(), 'application/pdf'],
    ] as const;
    for (const [name, content, contentType] of documents) {
      expect(containsAuthor(content), name).toBe(true);
      const response = await upload(reporter, name, content);
      expect(response.statusCode, name).toBe(201);
      const view = response.json();
      expect(view.content_type, name).toBe(contentType);
      const download = await reporter.get(`/api/v1/file/${view.id}/`);
      expect(download.statusCode, name).toBe(200);
      const bytes = download.rawPayload;
      expect(containsAuthor(bytes), name).toBe(false);
      expect(createHash('sha256').update(bytes).digest('hex'), name).toBe(view.sha256);
      if (contentType === 'application/pdf') {
        const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
        expect(pdf.getAuthor()).toBeUndefined();
        expect(pdf.getPageCount()).toBe(1);
      } else {
        const entries = unzipSync(bytes);
        const body = entries['word/document.xml'] ?? entries['Contents/section0.xml'];
        expect(Buffer.from(body!).toString(), name).toContain(BODY_TEXT);
      }
    }
  });

  it('downloads as an attachment with the Korean name intact and nosniff', async () => {
    const created = (
      await upload(reporter, '회의 녹취록 (최종).txt', Buffer.from('녹취 내용입니다.\n'))
    ).json();
    expect(created.content_type).toBe('text/plain; charset=utf-8');
    const download = await reporter.get(`/api/v1/file/${created.id}`);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="__ ___ (__).txt"; filename*=UTF-8''${encodeURIComponent('회의 녹취록 ')}%28${encodeURIComponent('최종')}%29.txt`,
    );
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['cache-control']).toBe('no-store');
    expect(String(download.headers['content-security-policy'])).toContain('sandbox');
    expect(download.body).toBe('녹취 내용입니다.\n');
  });

  it('keeps only the base name of a path-like file name', async () => {
    const created = (await upload(reporter, '../../../etc/passwd.txt', Buffer.from('harmless'))).json();
    expect(created.name).toBe('passwd.txt');
    const windows = (await upload(reporter, '..\\..\\boot.txt', Buffer.from('harmless'))).json();
    expect(windows.name).toBe('boot.txt');
  });

  it('refuses a .jpg whose bytes are HTML with 415 and leaves nothing behind', async () => {
    const before = storedFileCount();
    const response = await upload(
      reporter,
      'photo.jpg',
      Buffer.from('<html><script>alert(1)</script></html>'),
      'image/jpeg',
    );
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(response.json().message).toMatch(/[가-힣]/);
    expect(storedFileCount()).toBe(before);
    expect(temporaryFileCount()).toBe(0);
  });

  it('refuses executables whatever their name', async () => {
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);
    const response = await upload(reporter, 'report.pdf', exe);
    expect(response.statusCode).toBe(415);
  });

  it('refuses a file one byte over the limit with 413 and leaves nothing on disk', async () => {
    const before = storedFileCount();
    const countFiles = async () =>
      (await ctx.database.query<{ count: number }>('SELECT count(*)::int AS count FROM files'))[0]?.count;
    const rowsBefore = await countFiles();
    const response = await upload(reporter, 'big.txt', Buffer.alloc(MAX_FILE_BYTES + 1, 0x61));
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('PAYLOAD_TOO_LARGE');
    expect(storedFileCount()).toBe(before);
    expect(temporaryFileCount()).toBe(0);
    expect(await countFiles()).toBe(rowsBefore);
    const atLimit = await upload(reporter, 'exact.txt', Buffer.alloc(MAX_FILE_BYTES, 0x61));
    expect(atLimit.statusCode).toBe(201);
  });

  it('answers a non-multipart upload with 415 and an empty file with 400', async () => {
    const json = await reporter.post('/api/v1/file/', { file: 'x' });
    expect(json.statusCode).toBe(415);
    const empty = await upload(reporter, 'empty.txt', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details.file).toBe('빈 파일은 올릴 수 없습니다.');
  });

  it('lists only the caller’s files and hides other people’s files behind 404', async () => {
    const mine = (await upload(reporter, 'mine.txt', Buffer.from('mine'))).json();
    const listed = (await reporter.get('/api/v1/file/')).json();
    expect(listed.map((file: { id: string }) => file.id)).toContain(mine.id);
    const theirs = (await colleague.get('/api/v1/file/')).json();
    expect(theirs.map((file: { id: string }) => file.id)).not.toContain(mine.id);
    expect((await colleague.get(`/api/v1/file/${mine.id}/`)).statusCode).toBe(404);
    expect((await colleague.delete(`/api/v1/file/${mine.id}/`)).statusCode).toBe(404);
    expect((await reporter.get('/api/v1/file/not-a-uuid/')).statusCode).toBe(404);
  });

  it('deletes an uncited file with its bytes', async () => {
    const created = (await upload(reporter, 'temp.txt', Buffer.from('temporary'))).json();
    const [row] = await ctx.database.db.select().from(files).where(eq(files.id, created.id));
    const storedPath = path.join(filesRoot(), row!.storageKey.slice(0, 2), row!.storageKey);
    expect(fs.existsSync(storedPath)).toBe(true);
    expect((await reporter.delete(`/api/v1/file/${created.id}/`)).statusCode).toBe(204);
    expect(fs.existsSync(storedPath)).toBe(false);
    expect((await reporter.get(`/api/v1/file/${created.id}/`)).statusCode).toBe(404);
  });
});

describe('submitting reports', () => {
  it('files anonym, brief and formal reports with sequential case numbers and a first status row', async () => {
    const numbers: string[] = [];
    for (const type of ['anonym', 'brief', 'formal'] as const) {
      // An anonymous report goes through its own draft and is followed with its receipt, not the account.
      const client = type === 'anonym' ? await anonymousDraft(ctx, reporter) : reporter;
      const response = await client.post('/api/v1/report/', reportBody(type));
      expect(response.statusCode).toBe(201);
      const { id } = response.json();
      const detail = await client.get(`/api/v1/report/${id}`);
      expect(detail.statusCode).toBe(200);
      const body = detail.json();
      expect(body).toMatchObject({ id, report_type: type, status: 'received' });
      expect(body.case_number).toMatch(CASE_REFERENCE_PATTERN);
      expect(body.history).toEqual([
        expect.objectContaining({ from_status: null, to_status: 'received', note_for_reporter: '' }),
      ]);
      expect(body.form.perpetrator_name).toBe('박행위');
      numbers.push(body.case_number);
      expect((await client.get(`/api/v1/report/${id}/`)).statusCode).toBe(200);
    }
    // Random references (decision 0030): distinct, and none counts the company's cases.
    expect(new Set(numbers).size).toBe(3);
  });

  it('keeps no reporter identity in a stored anonymous report and refuses one that carries it', async () => {
    const draft = await anonymousDraft(ctx, reporter);
    const refused = await draft.post('/api/v1/report/', reportBody('anonym', { reporter_name: '김신고' }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details.reporter_name).toBeDefined();
    const { id } = (await draft.post('/api/v1/report/', reportBody('anonym'))).json();
    const [row] = await ctx.database.db.select().from(reports).where(eq(reports.id, id));
    const form = await openJson<Record<string, unknown>>(ctx.database, 'reports.form', id, row!.form);
    for (const field of ['reporter_name', 'reporter_role', 'reporter_department', 'reporter_tenure'])
      expect(form[field]).toBe('');
  });

  it('does not let the reporter set server-controlled or statement fields', async () => {
    const { id } = (
      await reporter.post(
        '/api/v1/report/',
        reportBody('brief', {
          perpetrator_email_sent_at: '2026-01-01T00:00:00Z',
          defendant_opinion: '가짜 진술',
          reference_memory: '가짜',
        }),
      )
    ).json();
    const form = (await reporter.get(`/api/v1/report/${id}`)).json().form;
    expect(form.perpetrator_email_sent_at).toBeNull();
    expect(form.defendant_opinion).toBe('');
    expect(form.reference_memory).toBe('');
    expect(form.witnesses[0].email_sent_at).toBeNull();
  });

  it('tells the company managers a case arrived, with no content and no identity', async () => {
    const { id } = (
      await reporter.post('/api/v1/report/', reportBody('formal', { extra_info: 'CONTENT-SENTINEL' }))
    ).json();
    const caseNumber = (await reporter.get(`/api/v1/report/${id}`)).json().case_number;
    const mails = (await mailsTo(ctx.database, 'manager@a.example')).filter(
      (row) => row.template === 'new_case',
    );
    const mail = mails.find((row) => row.subject.includes(caseNumber));
    expect(mail).toBeDefined();
    for (const part of [mail!.subject, mail!.text, mail!.html]) {
      expect(part).not.toContain('CONTENT-SENTINEL');
      expect(part).not.toContain('김신고');
      expect(part).not.toContain('reporter@a.example');
      expect(part).not.toContain('박행위');
    }
    expect(mail!.text).toContain(`/manager/detail/${id}`);
  });

  it('makes one report for one Idempotency-Key, however often it is sent', async () => {
    const key = 'draft-7f1c2b9e-retry';
    const first = await reporter.post('/api/v1/report/', reportBody('brief'), { 'Idempotency-Key': key });
    const second = await reporter.post('/api/v1/report/', reportBody('brief'), { 'Idempotency-Key': key });
    const [third, fourth] = await Promise.all([
      reporter.post('/api/v1/report/', reportBody('brief'), { 'Idempotency-Key': key }),
      reporter.post('/api/v1/report/', reportBody('brief'), { 'Idempotency-Key': key }),
    ]);
    expect(first.statusCode).toBe(201);
    for (const response of [second, third, fourth]) expect(response.json().id).toBe(first.json().id);
    const rows = await ctx.database.db.select().from(reports).where(eq(reports.idempotencyKey, key));
    expect(rows).toHaveLength(1);
    // The same key from another reporter is their own key.
    const other = await colleague.post('/api/v1/report/', reportBody('brief'), { 'Idempotency-Key': key });
    expect(other.json().id).not.toBe(first.json().id);
  });

  it('links cited evidence, refuses someone else’s file, and protects cited files from deletion', async () => {
    const evidence = (await upload(reporter, 'evidence.txt', Buffer.from('증거'))).json();
    const foreign = (await upload(colleague, 'theirs.txt', Buffer.from('남의 파일'))).json();
    const act = { date: '2026-10-02', location: '사무실', description: '폭언', evidences: [foreign.id] };
    const refused = await reporter.post('/api/v1/report/', reportBody('brief', { acts: [act] }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details.evidences).toBeDefined();

    const cited = await reporter.post(
      '/api/v1/report/',
      reportBody('brief', { acts: [{ ...act, evidences: [evidence.id] }] }),
    );
    expect(cited.statusCode).toBe(201);
    const detail = (await reporter.get(`/api/v1/report/${cited.json().id}`)).json();
    expect(detail.files.map((file: { id: string }) => file.id)).toEqual([evidence.id]);
    const removal = await reporter.delete(`/api/v1/file/${evidence.id}/`);
    expect(removal.statusCode).toBe(409);
    expect(removal.json().code).toBe('FILE_IN_USE');
  });

  it('needs a company, and sends statement types to the invitation path', async () => {
    const noCompany = await outsider.post('/api/v1/report/', reportBody('brief'));
    expect(noCompany.statusCode).toBe(403);
    expect(noCompany.json().code).toBe('NO_COMPANY');
    const statement = await reporter.post('/api/v1/report/', {
      report_type: 'reference',
      reference_witnessed: '봤습니다',
    });
    expect(statement.statusCode).toBe(400);
    expect(statement.json().details.report_type).toBeDefined();
    const logout = await ctx.app.inject({ method: 'GET', url: '/api/v1/report/' });
    expect(logout.statusCode).toBe(401);
  });
});

describe('reading own reports', () => {
  it('lists only the caller’s reports, newest first, paged', async () => {
    const fresh = await registerAndLogin(ctx, 'pager@a.example');
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push((await fresh.post('/api/v1/report/', reportBody('brief'))).json().id);
    const page1 = (await fresh.get('/api/v1/report/?page=1&page_size=2')).json();
    expect(page1.count).toBe(3);
    expect(page1.results.map((row: { id: string }) => row.id)).toEqual([ids[2], ids[1]]);
    expect(page1.next).toBe('/api/v1/report/?page=2&page_size=2');
    expect(page1.previous).toBeNull();
    const page2 = (await fresh.get('/api/v1/report/?page=2&page_size=2')).json();
    expect(page2.results.map((row: { id: string }) => row.id)).toEqual([ids[0]]);
    expect(page2.next).toBeNull();
    expect((await fresh.get('/api/v1/report/?page_size=101')).statusCode).toBe(400);
  });

  it('answers another user’s report, and a missing one, with the same 404', async () => {
    const { id } = (await reporter.post('/api/v1/report/', reportBody('formal'))).json();
    const theirs = await colleague.get(`/api/v1/report/${id}`);
    const missing = await colleague.get('/api/v1/report/00000000-0000-4000-8000-000000000000');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(missing.body);
  });
});
