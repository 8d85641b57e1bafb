import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompany,
  createManager,
  invitationTokenFor,
  inviteeClient,
  reportBody,
  upload,
} from '../fixtures.ts';
import { createTestApp, registerAndLogin, type TestClient, type TestContext } from '../helpers.ts';

let ctx: TestContext;
let reporter: TestClient;
let manager: TestClient;

beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '에프칠 주식회사', 'f7.example');
  reporter = await registerAndLogin(ctx, 'reporter@f7.example');
  manager = await createManager(ctx, 'manager@f7.example');
});
afterAll(() => ctx.close());

describe('F7: shared evidence is the evidence of the acts, never of the harm', () => {
  it("F7: the accused person's token downloads the acts' evidence and gets 404 for the harm evidence", async () => {
    const actFile = (await upload(reporter, '회의록.txt', Buffer.from('회의 중 고성'))).json();
    const harmFile = (await upload(reporter, '진단서.txt', Buffer.from('불면증 진단서'))).json();
    const body = reportBody('formal', {
      perpetrator_email: 'accused@f7.example',
      acts: [{ date: '2026-10-01', location: '회의실', description: '고성과 모욕', evidences: [actFile.id] }],
      harms: [{ type: 'mental', description: '불면과 불안', evidences: [harmFile.id] }],
    });
    const filed = await reporter.post('/api/v1/report/', body);
    expect(filed.statusCode).toBe(201);
    const reportId = filed.json().id as string;
    const invited = await manager.post(`/api/v1/manager/report/${reportId}/invitations`, {
      invitations: [{ kind: 'defendant' }, { kind: 'reference', witness_index: 0 }],
      share_evidence: true,
    });
    expect(invited.statusCode).toBe(201);

    const accused = inviteeClient(ctx, await invitationTokenFor(ctx, 'accused@f7.example', 'defendant'));
    const page = (
      await accused.get(
        `/api/v1/invitation/${await invitationTokenFor(ctx, 'accused@f7.example', 'defendant')}`,
      )
    ).json();
    const listed = page.acts.flatMap((act: { evidences: { id: string }[] }) =>
      act.evidences.map((e) => e.id),
    );
    expect(listed).toEqual([actFile.id]);

    const act = await accused.get(`/api/v1/file/${actFile.id}/`);
    expect(act.statusCode).toBe(200);
    expect(act.body).toBe('회의 중 고성');
    const harm = await accused.get(`/api/v1/file/${harmFile.id}/`);
    expect(harm.statusCode).toBe(404);
    expect(harm.body).not.toContain('진단서');

    // A witness never gets the reporter's files, shared or not.
    const witness = inviteeClient(ctx, await invitationTokenFor(ctx, 'witness@a.example', 'reference'));
    for (const id of [actFile.id, harmFile.id])
      expect((await witness.get(`/api/v1/file/${id}/`)).statusCode).toBe(404);
    // The manager still reads both.
    for (const id of [actFile.id, harmFile.id])
      expect((await manager.get(`/api/v1/file/${id}/`)).statusCode).toBe(200);
  });
});
