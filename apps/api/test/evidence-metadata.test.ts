import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadataJobsInProgress } from '../src/lib/remove-metadata.ts';
import { anonymousDraft, createCompany, createManager, reportBody, upload } from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestClient, type TestContext } from './helpers.ts';
import {
  containsSentinel,
  exiftoolJson,
  hasExiftool,
  type MetadataFixture,
  metadataFixtures,
  PERSONAL_TAG,
  SENTINEL,
  unclosedTagsPackage,
} from './metadata-fixtures.ts';

let ctx: TestContext;
let reporter: TestClient;
let manager: TestClient;
let fixtures: MetadataFixture[];

beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '증거주식회사', 'evidence.example');
  reporter = await registerAndLogin(ctx, 'reporter@evidence.example');
  manager = await createManager(ctx, 'manager@evidence.example');
  fixtures = await metadataFixtures();
}, 120_000);
afterAll(() => ctx.close());

async function storedStatus(fileId: string): Promise<string | undefined> {
  const [row] = await ctx.database.query<{ metadata_status: string }>(
    'SELECT metadata_status FROM files WHERE id = $1',
    [fileId],
  );
  return row?.metadata_status;
}

describe('evidence uploads carry no one’s name', () => {
  it('gives the manager every accepted type of an anonymous report’s evidence without the name or the place', async () => {
    const draft = await anonymousDraft(ctx, reporter);
    const uploaded: Array<{ fixture: MetadataFixture; id: string }> = [];
    for (const fixture of fixtures) {
      expect(containsSentinel(fixture.bytes), fixture.name).toBe(true);
      const response = await upload(draft, fixture.name, fixture.bytes);
      expect(response.statusCode, fixture.name).toBe(201);
      const file = response.json();
      expect(file.content_type, fixture.name).toBe(fixture.contentType);
      expect(file.metadata, fixture.name).toBe('removed');
      expect(await storedStatus(file.id)).toBe('removed');
      uploaded.push({ fixture, id: file.id });
    }
    const submitted = await draft.post(
      '/api/v1/report/',
      reportBody('anonym', {
        acts: [
          {
            date: '2026-10-01',
            location: '본사',
            description: '폭언',
            evidences: uploaded.map(({ id }) => id),
          },
        ],
      }),
    );
    expect(submitted.statusCode).toBe(201);
    for (const { fixture, id } of uploaded) {
      const download = await manager.get(`/api/v1/file/${id}/`);
      expect(download.statusCode, fixture.name).toBe(200);
      expect(containsSentinel(download.rawPayload), fixture.name).toBe(false);
      if (fixture.exiftoolReads && hasExiftool()) {
        const tags = await exiftoolJson(
          fixture.name.slice(fixture.name.lastIndexOf('.')),
          download.rawPayload,
        );
        const personal = Object.entries(tags).filter(
          ([name, value]) => PERSONAL_TAG.test(name) || JSON.stringify(value).includes('sentinel'),
        );
        expect(personal, fixture.name).toEqual([]);
      }
    }
  }, 120_000);

  it('records none for plain text and unremovable for an OLE document, both kept as uploaded', async () => {
    const text = Buffer.from(`녹취 메모 ${SENTINEL}\n`);
    const note = (await upload(reporter, 'memo.txt', text)).json();
    expect(note.metadata).toBe('none');
    // An OLE compound file header: HWP 5, old Word, Excel and PowerPoint.
    const ole = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(1024)]);
    const hwp = (await upload(reporter, '진술서.hwp', ole)).json();
    expect(hwp).toMatchObject({ content_type: 'application/x-hwp', metadata: 'unremovable' });
    expect(await storedStatus(hwp.id)).toBe('unremovable');
    expect((await reporter.get(`/api/v1/file/${note.id}/`)).rawPayload.equals(text)).toBe(true);
  });
});

describe('security F1: crafted documents do not block the API', () => {
  it.each([
    ['docx', 'crafted.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['hwpx', 'crafted.hwpx', 'application/hwp+zip'],
  ] as const)(
    'answers /api/health while a %s of 40,000 unclosed tags is processed, then stores it as unremovable',
    async (kind, name, contentType) => {
      const crafted = unclosedTagsPackage(kind);
      expect(crafted.length).toBeLessThan(10_000);
      let isUploading = true;
      const uploading = upload(reporter, name, crafted).finally(() => {
        isUploading = false;
      });
      let answeredDuringProcessing = 0;
      while (isUploading) {
        const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
        expect(health.statusCode).toBe(200);
        // Work on the event loop would let no request finish until it ended.
        if (metadataJobsInProgress() > 0) answeredDuringProcessing += 1;
        // Injected requests complete within one turn of the event loop; the worker's answer needs the next.
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(answeredDuringProcessing).toBeGreaterThan(0);
      const stored = (await uploading).json();
      expect(stored).toMatchObject({ content_type: contentType, metadata: 'unremovable' });
      expect((await reporter.get(`/api/v1/file/${stored.id}/`)).rawPayload.equals(crafted)).toBe(true);
    },
    60_000,
  );
});
