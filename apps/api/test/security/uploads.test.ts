import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileTooLarge } from '../../src/domain/files/files.ts';
import { multipartFile, upload } from '../fixtures.ts';
import {
  createTestApp,
  listFilesRecursive,
  registerAndLogin,
  type TestClient,
  type TestContext,
} from '../helpers.ts';

const MAX_FILE_BYTES = 64 * 1024;
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

let ctx: TestContext;
let reporter: TestClient;
let dataDirParent: string;

beforeAll(async () => {
  ctx = await createTestApp({ config: { MAX_FILE_BYTES: String(MAX_FILE_BYTES) } });
  reporter = await registerAndLogin(ctx, 'uploader@example.com');
  dataDirParent = path.dirname(ctx.config.dataDir);
});
afterAll(() => ctx.close());

const filesRoot = () => path.join(ctx.config.dataDir, 'files');

async function fileRowCount(): Promise<number> {
  const [row] = await ctx.database.query<{ count: number }>('SELECT count(*)::int AS count FROM files');
  return Number(row?.count);
}

describe('security: evidence uploads and downloads', () => {
  it('refuses a file 1 byte over MAX_FILE_BYTES with 413 and leaves nothing on disk or in the database', async () => {
    const filesBefore = listFilesRecursive(filesRoot());
    const rowsBefore = await fileRowCount();
    for (const [name, content] of [
      ['big.txt', Buffer.alloc(MAX_FILE_BYTES + 1, 0x61)],
      ['big.pdf', Buffer.concat([PDF, Buffer.alloc(MAX_FILE_BYTES + 1 - PDF.length, 0x20)])],
    ] as const) {
      expect(content.length).toBe(MAX_FILE_BYTES + 1);
      const response = await upload(reporter, name, content);
      expect(response.statusCode, name).toBe(413);
      expect(response.json().code).toBe('PAYLOAD_TOO_LARGE');
      // The message names the limit, so the reporter knows what would go through.
      expect(response.json().message).toContain(`${MAX_FILE_BYTES / 1024} KB까지`);
    }
    // .tmp included: an aborted upload must not leave its partial bytes behind either.
    expect(listFilesRecursive(filesRoot())).toEqual(filesBefore);
    expect(await fileRowCount()).toBe(rowsBefore);
    // The control: exactly at the limit is accepted, and leaves exactly one stored file.
    const atLimit = await upload(reporter, 'exact.txt', Buffer.alloc(MAX_FILE_BYTES, 0x61));
    expect(atLimit.statusCode).toBe(201);
    const added = listFilesRecursive(filesRoot()).filter((file) => !filesBefore.includes(file));
    expect(added).toHaveLength(1);
    expect(added[0]).not.toContain(`${path.sep}.tmp${path.sep}`);
  });

  it('says the production limit in the too-large message: 50 MB', () => {
    expect(fileTooLarge(50 * 1024 * 1024).message).toBe(
      '파일이 너무 큽니다. 파일 하나는 50 MB까지 올릴 수 있습니다.',
    );
  });

  it('decides the content type by the bytes, not by the name or the claimed type', async () => {
    const html = Buffer.from(
      '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
    );
    for (const [name, claimed] of [
      ['photo.jpg', 'image/jpeg'],
      ['scan.pdf', 'application/pdf'],
      ['page.html', 'text/html'],
    ] as const) {
      const refused = await upload(reporter, name, html, claimed);
      expect(refused.statusCode, name).toBe(415);
      expect(refused.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const pdfAsText = await upload(reporter, 'notes.txt', PDF, 'text/plain');
    expect(pdfAsText.statusCode).toBe(201);
    expect(pdfAsText.json().content_type).toBe('application/pdf');
    const download = await reporter.get(`/api/v1/file/${pdfAsText.json().id}/`);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('makes path traversal and control characters in the file name harmless', async () => {
    const sentinelNames = [
      '../../etc/passwd',
      '..\\..\\x',
      '../../../tmp/evil\u0000.pdf',
      'a\u0000/../../b.pdf',
    ];
    const before = new Set(listFilesRecursive(ctx.config.dataDir));
    for (const name of sentinelNames) {
      const response = await upload(reporter, name, PDF, 'application/pdf');
      expect(response.statusCode, JSON.stringify(name)).toBe(201);
      const stored = response.json().name as string;
      expect(stored, JSON.stringify(name)).not.toMatch(/[/\\]/);
      expect(stored.includes('\u0000')).toBe(false);
      expect(stored.startsWith('..')).toBe(false);
      const download = await reporter.get(`/api/v1/file/${response.json().id}/`);
      const disposition = String(download.headers['content-disposition']);
      expect(disposition).toMatch(/^attachment; filename="[^"/\\]*"; filename\*=UTF-8''[^/\\\s]+$/);
      expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe(stored);
    }
    // Nothing lands outside the store: every new file under the data directory is a random key in files/.
    const added = listFilesRecursive(ctx.config.dataDir).filter((file) => !before.has(file));
    expect(added).toHaveLength(sentinelNames.length);
    for (const file of added) {
      expect(path.relative(filesRoot(), file)).toMatch(/^[\w-]{2}\/[\w-]{43}$/);
    }
    expect(fs.existsSync(path.join(dataDirParent, 'etc', 'passwd'))).toBe(false);
    expect(fs.existsSync(path.join(filesRoot(), '..', '..', 'x'))).toBe(false);
    // A name made only of what is stripped gets a neutral one instead of an empty header.
    const { payload, headers } = multipartFile('../..', PDF, 'application/pdf');
    const bare = await reporter.request({ method: 'POST', url: '/api/v1/file/', payload, headers });
    expect(bare.json().name).toBe('첨부파일');
  });

  it('sends downloads as attachments with a UTF-8 file name, nosniff, no-store and a sandbox', async () => {
    const created = (await upload(reporter, "녹취록;최종's.txt", Buffer.from('녹취 내용\n'))).json();
    const download = await reporter.get(`/api/v1/file/${created.id}/`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="___;__'s.txt"; filename*=UTF-8''${encodeURIComponent('녹취록;최종')}%27s.txt`,
    );
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['cache-control']).toBe('no-store');
    expect(download.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(String(download.headers['content-security-policy'])).toMatch(/default-src 'none'.*sandbox/);
    expect(download.body).toBe('녹취 내용\n');
  });
});
