import { REPORT_LIMITS } from '@ansim/shared/report-form-options';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCorpus, CORPUS_MARK, type CorpusFile } from './corpus/build-corpus.ts';
import { scanForSentinels } from './corpus/scan.ts';
import { anonymousDraft, createCompany, createManager, reportBody, upload } from './fixtures.ts';
import { createTestApp, registerAndLogin, TestClient, type TestContext } from './helpers.ts';
import { hasExiftool } from './metadata-fixtures.ts';

/**
 * The evidence corpus, end to end: each file is uploaded as a reporter would, cited by a report, and
 * downloaded as the company's manager would; an independent scanner (corpus/scan.ts) then looks for the
 * sentinels in the bytes, in every ZIP entry and PDF stream nested in them, and in what exiftool reads
 * from every embedded image, sound or video. Files the cleaner cannot vouch for are refused for an
 * anonymous report, and accepted, marked `unremovable`, for a named one.
 */

/** Every corpus sentinel starts with the mark; the metadata fixtures share one sentinel of their own. */
const SENTINELS = [CORPUS_MARK, 'sentinel-7f3a', '김센티넬'];

let ctx: TestContext;
let reporter: TestClient;
let manager: TestClient;
let corpus: CorpusFile[];

beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '말뭉치주식회사', 'corpus.example');
  reporter = await registerAndLogin(ctx, 'reporter@corpus.example');
  manager = await createManager(ctx, 'manager@corpus.example');
  corpus = await buildCorpus();
}, 900_000);
afterAll(() => ctx.close());

/** Acts citing the files, as many to an act as the form allows. */
const actCiting = (ids: string[]) => {
  const acts = [];
  for (let at = 0; at < ids.length; at += REPORT_LIMITS.evidencesPerItem) {
    const evidences = ids.slice(at, at + REPORT_LIMITS.evidencesPerItem);
    acts.push({ date: '2026-10-01', location: '본사', description: '폭언', evidences });
  }
  return { acts };
};

describe('the evidence corpus', () => {
  it('holds 25 or more real-world shapes, each with its sentinel where the scanner finds it', async () => {
    expect(corpus.length).toBeGreaterThanOrEqual(25);
    for (const file of corpus.filter(({ outcome }) => outcome !== 'none')) {
      const findings = await scanForSentinels(file.bytes, SENTINELS, { useExiftool: false });
      expect(findings.length, file.name).toBeGreaterThan(0);
    }
  }, 600_000);

  it('reaches the manager of an anonymous report with no sentinel anywhere inside, and refuses what it cannot clean', async () => {
    const draft = await anonymousDraft(ctx, reporter);
    const accepted: Array<{ file: CorpusFile; id: string }> = [];
    const unremovable: string[] = [];
    for (const file of corpus) {
      const response = await upload(draft, file.name, file.bytes);
      if (file.outcome === 'refused') {
        expect(response.statusCode, file.name).toBe(415);
        continue;
      }
      expect(response.statusCode, file.name).toBe(201);
      expect(response.json().metadata, file.name).toBe(file.outcome);
      if (file.outcome === 'unremovable') unremovable.push(response.json().id);
      else accepted.push({ file, id: response.json().id });
    }
    expect(unremovable.length).toBeGreaterThan(0);
    // Not one file the cleaner could not vouch for may back an anonymous report.
    for (const id of unremovable) {
      const refused = await draft.post(
        '/api/v1/report/',
        reportBody('anonym', actCiting([accepted[0]!.id, id])),
      );
      expect(refused.statusCode).toBe(422);
      expect(refused.json().code).toBe('FILE_METADATA_UNREMOVABLE');
    }
    const submitted = await draft.post(
      '/api/v1/report/',
      reportBody('anonym', actCiting(accepted.map(({ id }) => id))),
    );
    expect(submitted.statusCode).toBe(201);
    const useExiftool = hasExiftool();
    for (const { file, id } of accepted) {
      const download = await manager.get(`/api/v1/file/${id}/`);
      expect(download.statusCode, file.name).toBe(200);
      const findings = await scanForSentinels(download.rawPayload, SENTINELS, { useExiftool });
      expect(findings, `${file.name}: ${file.where}`).toEqual([]);
    }
  }, 900_000);

  it('lets a named report cite a file whose metadata could not be removed, told so at upload', async () => {
    const ids: string[] = [];
    for (const file of corpus.filter(({ outcome }) => outcome === 'unremovable')) {
      const response = await upload(reporter, file.name, file.bytes);
      expect(response.statusCode, file.name).toBe(201);
      expect(response.json().metadata, file.name).toBe('unremovable');
      ids.push(response.json().id);
    }
    const submitted = await reporter.post('/api/v1/report/', reportBody('brief', actCiting(ids)));
    expect(submitted.statusCode).toBe(201);
  }, 600_000);
});

describe('files a handler sends to an anonymous reporter', () => {
  const corpusFile = (name: string) => corpus.find((file) => file.name === name)!;

  async function anonymousCase() {
    const draft = await anonymousDraft(ctx, reporter);
    const created = await draft.post('/api/v1/report/', reportBody('anonym'));
    expect(created.statusCode).toBe(201);
    // The reporter's browser afterwards: nothing but the receipt session.
    const holder = new TestClient(ctx.app);
    for (const [name, value] of draft.cookies) holder.cookies.set(name, value);
    return { id: created.json().id as string, holder };
  }

  it('reach the reporter without remote pictures, fetching fields or links to folders', async () => {
    const { id, holder } = await anonymousCase();
    const tracking = corpusFile('links.docx');
    const uploaded = await upload(manager, '안내문.docx', tracking.bytes);
    expect(uploaded.json().metadata).toBe('removed');
    const sent = await manager.post(`/api/v1/manager/report/${id}/messages`, {
      body: '안내문을 보내드립니다.',
      files: [uploaded.json().id],
    });
    expect(sent.statusCode).toBe(201);
    const received = await holder.get(`/api/v1/file/${uploaded.json().id}/`);
    expect(received.statusCode).toBe(200);
    // The tracking server's address and every path the corpus put in the links are gone.
    expect(await scanForSentinels(received.rawPayload, [CORPUS_MARK, 'track.example'])).toEqual([]);
  }, 600_000);

  it('are refused for an anonymous case when the cleaner cannot vouch for them, with the advice to send a PDF', async () => {
    const { id, holder } = await anonymousCase();
    const uncleanable = await upload(manager, '안내문.docx', corpusFile('tiff.docx').bytes);
    expect(uncleanable.json().metadata).toBe('unremovable');
    const refused = await manager.post(`/api/v1/manager/report/${id}/messages`, {
      body: '안내문을 보내드립니다.',
      files: [uncleanable.json().id],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'FILE_NOT_NEUTRALISED' });
    expect(refused.json().message).toContain('PDF');
    expect((await holder.get(`/api/v1/report/${id}/messages`)).json()).toEqual([]);
    // A named reporter knows the handler anyway: the same file may go to a named case.
    const named = await reporter.post('/api/v1/report/', reportBody('brief'));
    const toNamed = await manager.post(`/api/v1/manager/report/${named.json().id}/messages`, {
      body: '안내문을 보내드립니다.',
      files: [uncleanable.json().id],
    });
    expect(toNamed.statusCode).toBe(201);
  }, 600_000);
});
