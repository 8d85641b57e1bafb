import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitations } from '../src/db/schema.ts';
import {
  anonymousDraft,
  createCompany,
  createManager,
  multipartFile,
  reportBody,
  upload,
} from './fixtures.ts';
import {
  createTestApp,
  mailsTo,
  registerAndLogin,
  type TestClient,
  type TestContext,
  tokenFromMail,
} from './helpers.ts';

let ctx: TestContext;
let reporter: TestClient;
let manager: TestClient;

beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '에이 주식회사', 'a.example');
  reporter = await registerAndLogin(ctx, 'reporter@a.example', { name: 'SENTINEL신고인' });
  manager = await createManager(ctx, 'manager@a.example');
});
afterAll(() => ctx.close());

/** The browser that filed each case: an anonymous report is followed through its receipt, not the account. */
const reporterOf = new Map<string, TestClient>();

async function fileCase(type: 'anonym' | 'formal', extra: Record<string, unknown> = {}) {
  const client = type === 'anonym' ? await anonymousDraft(ctx, reporter) : reporter;
  const evidence = (await upload(client, 'SENTINEL신고인_캡처.txt', Buffer.from('메신저 캡처'))).json();
  const body = reportBody(type, {
    perpetrator_email: 'accused@a.example',
    witnesses: [
      {
        name: '이목격',
        department: '영업팀',
        position: '대리',
        email: 'witness1@a.example',
        email_sent_at: null,
      },
      {
        name: '최참고',
        department: '총무팀',
        position: '과장',
        email: 'witness2@a.example',
        email_sent_at: null,
      },
    ],
    acts: [
      {
        date: '2026-10-01',
        location: '3층 회의실',
        description: '회의 중 고성과 모욕',
        evidences: [evidence.id],
      },
    ],
    ...extra,
  });
  const { id } = (await client.post('/api/v1/report/', body)).json();
  reporterOf.set(id, client);
  return id as string;
}

async function invite(reportId: string, targets: unknown[], shareEvidence = false) {
  return manager.post(`/api/v1/manager/report/${reportId}/invitations`, {
    invitations: targets,
    share_evidence: shareEvidence,
  });
}

async function linkFor(email: string, kind: 'defendant' | 'reference'): Promise<string> {
  const rows = await mailsTo(ctx.database, email);
  const latest = rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]!;
  return tokenFromMail(latest.text, `/${kind}`);
}

function invitee(token: string): TestClient {
  const client = new (reporter.constructor as typeof TestClient)(ctx.app);
  const request = client.request.bind(client);
  client.request = (options) =>
    request({
      ...options,
      headers: { ...(options.headers as Record<string, string>), 'X-Invitation-Token': token },
    });
  return client;
}

const defendantStatement = (extra: Record<string, unknown> = {}) => ({
  report_type: 'defendant',
  reporter_name: '박행위',
  reporter_role: '팀장',
  defendant_truth: 'partly_admit',
  defendant_true_part: '언성을 높인 것은 맞습니다.',
  defendant_false_part: '모욕은 하지 않았습니다.',
  defendant_opinion: '오해가 있었습니다.',
  ...extra,
});

describe('sending invitations', () => {
  it('sends one mail per invitee, fills email_sent_at, and never names the reporter', async () => {
    const id = await fileCase('anonym', { reporter_name: '', reporter_department: '' });
    const response = await invite(id, [
      { kind: 'defendant' },
      { kind: 'reference', witness_index: 0 },
      { kind: 'reference', witness_index: 1 },
    ]);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toHaveLength(3);
    const view = (await manager.get(`/api/v1/manager/report/${id}`)).json();
    expect(view.form.perpetrator_email_sent_at).not.toBeNull();
    expect(
      view.form.witnesses.map((w: { email_sent_at: string | null }) => w.email_sent_at !== null),
    ).toEqual([true, true]);
    for (const email of ['accused@a.example', 'witness1@a.example', 'witness2@a.example']) {
      const [mail] = await mailsTo(ctx.database, email);
      expect(mail!.subject).toContain('에이 주식회사');
      expect(mail!.text).toContain(view.case_number);
      expect(mail!.text).toContain('제76조의3 제7항');
      for (const part of [mail!.subject, mail!.text, mail!.html]) {
        expect(part).not.toContain('SENTINEL');
        expect(part).not.toContain('reporter@a.example');
      }
    }
    expect(await linkFor('accused@a.example', 'defendant')).toMatch(/^[\w-]{43}$/);
  });

  it('lets a manager add a witness the reporter did not name, and refuses a witness without e-mail', async () => {
    const id = await fileCase('formal');
    const added = await invite(id, [{ kind: 'reference', name: '정추가', email: 'extra@a.example' }]);
    expect(added.statusCode).toBe(201);
    expect(added.json()[0]).toMatchObject({
      kind: 'reference',
      name: '정추가',
      email: 'extra@a.example',
      witness_index: null,
    });
    const missing = await invite(id, [{ kind: 'reference', witness_index: 7 }]);
    expect(missing.statusCode).toBe(400);
  });
});

describe('the invitee’s link', () => {
  it('shows the acts without the reporter, records opening and acknowledgement, takes one statement with a receipt', async () => {
    const id = await fileCase('anonym', { reporter_name: '' });
    await invite(id, [{ kind: 'defendant' }], true);
    const token = await linkFor('accused@a.example', 'defendant');
    const page = await ctx.app.inject({ method: 'GET', url: `/api/v1/invitation/${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const view = page.json();
    expect(view).toMatchObject({ kind: 'defendant', company_name: '에이 주식회사', accused_name: '박행위' });
    expect(view.acts[0]).toMatchObject({ date: '2026-10-01', location: '3층 회의실' });
    expect(view.acts[0].evidences[0].name).toBe('증거자료-1');
    expect(page.body).not.toContain('SENTINEL');
    expect(page.body).not.toContain('reporter@a.example');

    const client = invitee(token);
    const shared = await client.get(`/api/v1/file/${view.acts[0].evidences[0].id}/`);
    expect(shared.statusCode).toBe(200);
    expect(shared.headers['content-disposition']).not.toContain('SENTINEL');

    const early = await client.post('/api/v1/report/', defendantStatement());
    expect(early.statusCode).toBe(409);
    expect((await client.post('/api/v1/invitation/acknowledge')).statusCode).toBe(200);

    const evidence = (await upload(client, '반론자료.txt', Buffer.from('제 입장을 정리한 자료'))).json();
    const submitted = await client.post(
      '/api/v1/report/',
      defendantStatement({ defendant_evidences: [evidence.id] }),
    );
    expect(submitted.statusCode).toBe(201);
    expect(submitted.json().receipt).toMatch(/^[0-9a-f]{64}$/);
    const retried = await client.post(
      '/api/v1/report/',
      defendantStatement({ defendant_evidences: [evidence.id] }),
    );
    expect(retried.statusCode).toBe(201);
    expect(retried.json()).toEqual(submitted.json());
    const again = await client.post('/api/v1/report/', defendantStatement());
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ALREADY_SUBMITTED');

    const caseView = (await manager.get(`/api/v1/manager/report/${id}`)).json();
    expect(caseView.invitations[0].opened_at).not.toBeNull();
    expect(caseView.invitations[0].acknowledged_at).not.toBeNull();
    expect(caseView.invitations[0].responded_at).not.toBeNull();
    expect(caseView.statements[0]).toMatchObject({ kind: 'defendant', sha256: submitted.json().receipt });
    expect(caseView.statements[0].form.defendant_truth).toBe('partly_admit');
    const evidenceDownload = await manager.get(`/api/v1/file/${evidence.id}/`);
    expect(evidenceDownload.statusCode).toBe(200);

    const reporterView = (await reporterOf.get(id)!.get(`/api/v1/report/${id}`)).json();
    expect(reporterView.statements).toEqual({
      defendant: 'responded',
      references_requested: 0,
      references_responded: 0,
    });
    expect(JSON.stringify(reporterView)).not.toContain('오해가 있었습니다');
  });

  it('reaches only its own report, role and files', async () => {
    const first = await fileCase('formal');
    const second = await fileCase('formal');
    await invite(first, [{ kind: 'reference', witness_index: 0 }]);
    const token = await linkFor('witness1@a.example', 'reference');
    const client = invitee(token);
    // Not shared with witnesses, and nothing of another report.
    const otherFiles = (await manager.get(`/api/v1/manager/report/${second}`)).json().files;
    expect((await client.get(`/api/v1/file/${otherFiles[0].id}/`)).statusCode).toBe(404);
    const ownFiles = (await manager.get(`/api/v1/manager/report/${first}`)).json().files;
    expect((await client.get(`/api/v1/file/${ownFiles[0].id}/`)).statusCode).toBe(404);
    expect((await client.get(`/api/v1/report/${first}`)).statusCode).toBe(401);
    expect((await client.get('/api/v1/manager/report/')).statusCode).toBe(401);
    await client.post('/api/v1/invitation/acknowledge');
    const wrongRole = await client.post('/api/v1/report/', defendantStatement());
    expect(wrongRole.statusCode).toBe(400);
    const reporterFile = (await reporter.get('/api/v1/file/')).json()[0];
    const foreign = await client.post('/api/v1/report/', {
      report_type: 'reference',
      reference_witnessed: '봤습니다',
      reference_evidences: [reporterFile.id],
    });
    expect(foreign.statusCode).toBe(400);
    const ok = await client.post('/api/v1/report/', {
      report_type: 'reference',
      reference_witnessed: '고성을 들었습니다',
      reference_memory: '오후 3시경',
    });
    expect(ok.statusCode).toBe(201);
    const secondView = (await manager.get(`/api/v1/manager/report/${second}`)).json();
    expect(secondView.statements).toHaveLength(0);
  });

  it('answers an expired link with 410, a revoked or unknown one with 404, and a re-sent one only with the new token', async () => {
    const id = await fileCase('formal');
    await invite(id, [{ kind: 'reference', witness_index: 1 }]);
    const oldToken = await linkFor('witness2@a.example', 'reference');
    const invitationId = (await manager.get(`/api/v1/manager/report/${id}`)).json().invitations[0].id;

    await ctx.database.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, invitationId));
    const expired = await ctx.app.inject({ method: 'GET', url: `/api/v1/invitation/${oldToken}` });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().code).toBe('INVITATION_EXPIRED');

    const resent = await manager.post(`/api/v1/manager/report/${id}/invitations/${invitationId}/resend`);
    expect(resent.statusCode).toBe(200);
    const newToken = await linkFor('witness2@a.example', 'reference');
    expect(newToken).not.toBe(oldToken);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/v1/invitation/${oldToken}` })).statusCode).toBe(
      404,
    );
    expect((await ctx.app.inject({ method: 'GET', url: `/api/v1/invitation/${newToken}` })).statusCode).toBe(
      200,
    );

    const client = invitee(newToken);
    await client.post('/api/v1/invitation/acknowledge');
    expect(
      (await client.post('/api/v1/report/', { report_type: 'reference', reference_witnessed: '첫 진술' }))
        .statusCode,
    ).toBe(201);
    expect(
      (await client.post('/api/v1/report/', { report_type: 'reference', reference_witnessed: '두 번째' }))
        .statusCode,
    ).toBe(409);

    // A re-sent invitation may answer again, with its new link only.
    await manager.post(`/api/v1/manager/report/${id}/invitations/${invitationId}/resend`);
    const thirdToken = await linkFor('witness2@a.example', 'reference');
    const again = invitee(thirdToken);
    await again.post('/api/v1/invitation/acknowledge');
    expect(
      (await again.post('/api/v1/report/', { report_type: 'reference', reference_witnessed: '보완 진술' }))
        .statusCode,
    ).toBe(201);

    await manager.post(`/api/v1/manager/report/${id}/invitations/${invitationId}/revoke`);
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/v1/invitation/${thirdToken}` })).statusCode,
    ).toBe(404);
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/v1/invitation/${'x'.repeat(43)}` })).statusCode,
    ).toBe(404);
    expect(
      (
        await invitee('unknown-token').post('/api/v1/report/', {
          report_type: 'reference',
          reference_witnessed: 'x',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('keeps invitee uploads to the invitee and out of reach without a token', async () => {
    const id = await fileCase('formal');
    await invite(id, [{ kind: 'reference', witness_index: 0 }]);
    const token = await linkFor('witness1@a.example', 'reference');
    const client = invitee(token);
    const { payload, headers } = multipartFile('메모.txt', Buffer.from('목격 메모'));
    const uploaded = await client.request({ method: 'POST', url: '/api/v1/file/', payload, headers });
    expect(uploaded.statusCode).toBe(201);
    expect((await reporter.get(`/api/v1/file/${uploaded.json().id}/`)).statusCode).toBe(404);
    expect((await client.get('/api/v1/file/')).json().map((f: { id: string }) => f.id)).toEqual([
      uploaded.json().id,
    ]);
  });
});
