import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadataQueue } from '../src/lib/remove-metadata.ts';
import { anonymousDraft, createCompany, jpegWithGps, upload } from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestContext } from './helpers.ts';
import { inflatingPackage } from './metadata-fixtures.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp({
    config: {
      METADATA_WAIT_MS: '300',
      UPLOADS_PER_CALLER_PER_HOUR: '3',
      UPLOADS_PER_IP_PER_HOUR: '5',
      UPLOAD_BYTES_PER_CALLER_PER_HOUR: String(1024 * 1024),
    },
  });
  await createCompany(ctx, '공정업로드', 'fair.example');
}, 300_000);
afterAll(() => ctx.close());

const text = (bytes: number) => Buffer.alloc(bytes, 'a');

describe('upload limits per caller and address', () => {
  it('refuses the fourth upload of one intake session in an hour, not the first of another', async () => {
    const member = await registerAndLogin(ctx, 'intake-count@fair.example');
    const draft = await anonymousDraft(ctx, member);
    for (let n = 0; n < 3; n += 1)
      expect((await upload(draft, `메모${n}.txt`, text(30))).statusCode).toBe(201);
    const refused = await upload(draft, '메모3.txt', text(30));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Nothing of the refused upload was kept.
    expect((await draft.get('/api/v1/file/')).json()).toHaveLength(3);
    const other = await anonymousDraft(ctx, member);
    expect((await upload(other, '메모.txt', text(30))).statusCode).toBe(201);
  });

  it("counts an account's uploads, and every caller's uploads from one address together", async () => {
    const member = await registerAndLogin(ctx, 'account-count@fair.example');
    for (let n = 0; n < 3; n += 1)
      expect((await upload(member, `기록${n}.txt`, text(30))).statusCode).toBe(201);
    expect((await upload(member, '기록3.txt', text(30))).statusCode).toBe(429);
    // The same address under an anonymous draft: its own count is fresh, while the address has spent four
    // of its five attempts (a refused one counts).
    const draft = await anonymousDraft(ctx, member);
    expect((await upload(draft, '하나.txt', text(30))).statusCode).toBe(201);
    const refused = await upload(draft, '둘.txt', text(30));
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });

  it('refuses the upload that takes a caller past its bytes for the hour', async () => {
    const member = await registerAndLogin(ctx, 'bytes@fair.example');
    const draft = await anonymousDraft(ctx, member);
    expect((await upload(draft, '큰메모.txt', text(600 * 1024))).statusCode).toBe(201);
    const refused = await upload(draft, '큰메모2.txt', text(600 * 1024));
    expect(refused.statusCode).toBe(429);
    expect((await draft.get('/api/v1/file/')).json()).toHaveLength(1);
  });
});

describe('waiting for a metadata worker', () => {
  it('answers 503 UPLOAD_BUSY with Retry-After once the wait deadline passes, then takes the same upload', async () => {
    const member = await registerAndLogin(ctx, 'busy@fair.example');
    // Every worker held by other companies' jobs, as three inflating packages would hold them.
    const releases: Array<() => void> = [];
    const held = Array.from({ length: metadataQueue.size }, (_, index) =>
      metadataQueue.run(
        { group: `other-company-${index}`, caller: `intake:${index}` },
        () => new Promise<void>((resolve) => releases.push(resolve)),
        { waitMs: 60_000 },
      ),
    );
    try {
      const photo = jpegWithGps('busy');
      const busy = await upload(member, '사진.jpg', photo);
      expect(busy.statusCode).toBe(503);
      expect(busy.json()).toMatchObject({ code: 'UPLOAD_BUSY', message: expect.stringContaining('다시') });
      expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);
      expect((await member.get('/api/v1/file/')).json()).toHaveLength(0);
      for (const release of releases) release();
      await Promise.all(held);
      const taken = await upload(member, '사진.jpg', photo);
      expect(taken.statusCode).toBe(201);
      expect(taken.json().metadata).toBe('removed');
    } finally {
      for (const release of releases) release();
    }
  });
});

describe('the inflated size of a package is capped', () => {
  it('keeps a document that inflates past the cap as uploaded and marks it unremovable', async () => {
    const member = await registerAndLogin(ctx, 'inflating@fair.example');
    // 24 MB of XML from a few tens of kilobytes: within what the old 256 MB limit read, past the new cap.
    const bomb = inflatingPackage(24 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const response = await upload(member, '진술서.docx', bomb);
    expect(response.statusCode).toBe(201);
    expect(response.json().metadata).toBe('unremovable');
  });

  it('still cleans an ordinary document of the same shape', async () => {
    const member = await registerAndLogin(ctx, 'ordinary@fair.example');
    const response = await upload(member, '진술서.docx', inflatingPackage(200 * 1024));
    expect(response.statusCode).toBe(201);
    expect(response.json().metadata).toBe('removed');
  });
});
