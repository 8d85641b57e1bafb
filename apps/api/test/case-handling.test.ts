import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, companies, files, protectiveMeasures, reportFiles, reports } from '../src/db/schema.ts';
import {
  anonymousDraft,
  createCompany,
  createManager,
  multipartFile,
  reportBody,
  upload,
} from './fixtures.ts';
import { createTestApp, registerAndLogin, TestClient, type TestContext } from './helpers.ts';

let ctx: TestContext;
let companyA: string;
let reporter: TestClient;
let member: TestClient;
let managerA: TestClient;
let managerB: TestClient;

const OUTCOME = {
  finding: 'partially_substantiated',
  actions: ['warning', 'training'],
  summary: '경고와 교육',
};

beforeAll(async () => {
  ctx = await createTestApp();
  companyA = await createCompany(ctx, '에이 주식회사', 'a.example');
  await createCompany(ctx, '비 주식회사', 'b.example');
  reporter = await registerAndLogin(ctx, 'reporter@a.example', { name: '김신고' });
  member = await registerAndLogin(ctx, 'member@a.example', { name: '이직원' });
  managerA = await createManager(ctx, 'manager@a.example');
  managerB = await createManager(ctx, 'manager@b.example');
});
afterAll(() => ctx.close());

async function fileCase(client: TestClient = reporter, type: 'brief' | 'formal' = 'formal') {
  const created = await client.post('/api/v1/report/', reportBody(type));
  expect(created.statusCode).toBe(201);
  return created.json().id as string;
}

/** An anonymous case and a browser that holds nothing but its receipt session. */
async function anonymousCase(evidence = false) {
  const draft = await anonymousDraft(ctx, member);
  const cited = evidence ? (await upload(draft, '원본.txt', Buffer.from('처음 증거'))).json().id : null;
  const body = reportBody('anonym', {
    acts: [{ date: '2026-10-01', location: '본사', description: '폭언', evidences: cited ? [cited] : null }],
  });
  const created = await draft.post('/api/v1/report/', body);
  expect(created.statusCode).toBe(201);
  const holder = new TestClient(ctx.app);
  for (const [name, value] of draft.cookies) holder.cookies.set(name, value);
  return { id: created.json().id as string, holder };
}

function patchStatus(client: TestClient, id: string, json: Record<string, unknown>) {
  return client.request({ method: 'PATCH', url: `/api/v1/manager/report/${id}`, json });
}

function patchMeasure(client: TestClient, id: string, measureId: string, json: Record<string, unknown>) {
  return client.request({ method: 'PATCH', url: `/api/v1/manager/report/${id}/measures/${measureId}`, json });
}

async function audits(reportId: string, action: string) {
  return ctx.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.targetId, reportId), eq(auditEvents.action, action)));
}

describe('attachments in messages', () => {
  it('lets a receipt holder attach a file owned by the report, listed under its generic name', async () => {
    const { id, holder } = await anonymousCase(true);
    const uploaded = await holder.request({
      method: 'POST',
      url: `/api/v1/file/?report_id=${id}`,
      ...multipartFile('김직원_녹음.txt', Buffer.from('녹음 대화 내용')),
    });
    expect(uploaded.statusCode).toBe(201);
    const fileId = uploaded.json().id;
    const [row] = await ctx.database.db.select().from(files).where(eq(files.id, fileId));
    expect(row).toMatchObject({ ownerReportId: id, ownerUserId: null, ownerIntakeId: null });

    const sent = await holder.post(`/api/v1/report/${id}/messages`, {
      body: '녹음 파일입니다.',
      files: [fileId],
    });
    expect(sent.statusCode).toBe(201);
    const message = sent.json().at(-1);
    // After the report's own evidence: the second file of the case.
    expect(message.files).toEqual([
      {
        id: fileId,
        name: '증거자료-2.txt',
        size: expect.any(Number),
        content_type: expect.stringContaining('text/plain'),
      },
    ]);
    const [cited] = await ctx.database.db.select().from(reportFiles).where(eq(reportFiles.fileId, fileId));
    expect(cited).toMatchObject({ reportId: id, messageId: message.id, position: 1 });

    const managerView = (await managerA.get(`/api/v1/manager/report/${id}`)).json();
    const managerMessage = managerView.messages.find((m: { id: string }) => m.id === message.id);
    expect(managerMessage.files).toEqual([expect.objectContaining({ id: fileId, name: '증거자료-2.txt' })]);
    expect(JSON.stringify(managerView)).not.toContain('김직원');
    const download = await managerA.get(`/api/v1/file/${fileId}/`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain('%EC%A6%9D%EA%B1%B0%EC%9E%90%EB%A3%8C-2.txt');
  });

  it('fails closed for an anonymous reporter file whose metadata could not be removed', async () => {
    const { id, holder } = await anonymousCase();
    const uploaded = await holder.request({
      method: 'POST',
      url: `/api/v1/file/?report_id=${id}`,
      ...multipartFile('문서.txt', Buffer.from('문서')),
    });
    const fileId = uploaded.json().id;
    await ctx.database.db.update(files).set({ metadataStatus: 'unremovable' }).where(eq(files.id, fileId));
    const refused = await holder.post(`/api/v1/report/${id}/messages`, {
      body: '문서입니다.',
      files: [fileId],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('FILE_METADATA_UNREMOVABLE');
    // Nothing half-done: no message, no citation.
    expect((await holder.get(`/api/v1/report/${id}/messages`)).json()).toEqual([]);
    expect(await ctx.database.db.select().from(reportFiles).where(eq(reportFiles.fileId, fileId))).toEqual(
      [],
    );
  });

  it('refuses files that are not the sender’s own, or already cited by a case', async () => {
    const id = await fileCase();
    const othersFile = (await upload(member, '남의파일.txt', Buffer.from('남의 파일'))).json().id;
    const foreign = await reporter.post(`/api/v1/report/${id}/messages`, {
      body: '첨부',
      files: [othersFile],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().details.files).toBeTruthy();

    const own = (await upload(reporter, '캡처.txt', Buffer.from('메신저 캡처'))).json().id;
    expect(
      (await reporter.post(`/api/v1/report/${id}/messages`, { body: '첨부', files: [own] })).statusCode,
    ).toBe(201);
    const again = await reporter.post(`/api/v1/report/${id}/messages`, { body: '다시', files: [own] });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('FILE_IN_USE');
  });

  it('lets the manager attach a file the reporter can download, and keeps other companies out', async () => {
    const id = await fileCase();
    const managerFile = (await upload(managerA, '안내문.txt', Buffer.from('조사 절차 안내'))).json().id;
    const sentByB = await managerB.post(`/api/v1/manager/report/${id}/messages`, {
      body: '남의 사건',
      files: [managerFile],
    });
    expect(sentByB.statusCode).toBe(404);

    const sent = await managerA.post(`/api/v1/manager/report/${id}/messages`, {
      body: '안내문을 보내드립니다.',
      files: [managerFile],
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().at(-1).files).toEqual([
      expect.objectContaining({ id: managerFile, name: '안내문.txt' }),
    ]);

    const seen = (await reporter.get(`/api/v1/report/${id}/messages`)).json();
    expect(seen.at(-1).files).toEqual([expect.objectContaining({ id: managerFile, name: '안내문.txt' })]);
    const download = await reporter.get(`/api/v1/file/${managerFile}/`);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('조사 절차 안내');
    // Another member of the company, and the other company's manager, still get 404.
    expect((await member.get(`/api/v1/file/${managerFile}/`)).statusCode).toBe(404);
    expect((await managerB.get(`/api/v1/file/${managerFile}/`)).statusCode).toBe(404);
    expect((await managerB.get(`/api/v1/manager/report/${id}/messages`)).statusCode).toBe(404);
  });

  it('lets a receipt holder download the manager’s attachment', async () => {
    const { id, holder } = await anonymousCase();
    const managerFile = (await upload(managerA, '일정.txt', Buffer.from('면담 일정'))).json().id;
    await managerA.post(`/api/v1/manager/report/${id}/messages`, {
      body: '일정입니다.',
      files: [managerFile],
    });
    const download = await holder.get(`/api/v1/file/${managerFile}/`);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('면담 일정');
  });
});

describe('the reporter’s say on measures', () => {
  it('lists the measures, records consent or objection with a time, and shows it to the manager', async () => {
    const id = await fileCase();
    const detail = (await reporter.get(`/api/v1/report/${id}`)).json();
    // The formal report asked for separation and paid leave.
    expect(detail.measures).toHaveLength(2);
    expect(detail.measures[0]).toMatchObject({
      id: expect.any(String),
      reporter_consent: null,
      reporter_opinion: '',
      reporter_opinion_at: null,
    });
    const measureId = detail.measures[0].id;

    const objected = await reporter.post(`/api/v1/report/${id}/measures/${measureId}/opinion`, {
      consent: false,
      opinion: '자리를 옮기면 오히려 드러납니다.',
    });
    expect(objected.statusCode).toBe(200);
    expect(objected.json()[0]).toMatchObject({
      reporter_consent: false,
      reporter_opinion: '자리를 옮기면 오히려 드러납니다.',
      reporter_opinion_at: expect.any(String),
    });
    const [stored] = await ctx.database.db
      .select()
      .from(protectiveMeasures)
      .where(eq(protectiveMeasures.id, measureId));
    // Sealed at rest.
    expect(stored!.reporterOpinion).not.toContain('자리를');
    const [audit] = await audits(id, 'measure.opinion');
    expect(audit).toMatchObject({ actorId: null, detail: { consent: false } });

    const managerView = (await managerA.get(`/api/v1/manager/report/${id}`)).json();
    expect(managerView.measures.find((m: { id: string }) => m.id === measureId)).toMatchObject({
      reporter_consent: false,
      reporter_opinion: '자리를 옮기면 오히려 드러납니다.',
    });

    // Someone else's report: 404.
    const stranger = await member.post(`/api/v1/report/${id}/measures/${measureId}/opinion`, {
      consent: true,
    });
    expect(stranger.statusCode).toBe(404);
    const otherCase = await fileCase();
    const wrongCase = await reporter.post(`/api/v1/report/${otherCase}/measures/${measureId}/opinion`, {
      consent: true,
    });
    expect(wrongCase.statusCode).toBe(404);
  });

  it('refuses to grant an objected measure without a recorded reason', async () => {
    const id = await fileCase();
    const proposed = await managerA.post(`/api/v1/manager/report/${id}/measures`, {
      measure: 'paid_leave',
      detail: '유급휴가 5일',
    });
    expect(proposed.statusCode).toBe(201);
    const measureId = proposed.json().id;
    await reporter.post(`/api/v1/report/${id}/measures/${measureId}/opinion`, { consent: false });

    const refused = await patchMeasure(managerA, id, measureId, { decision: 'granted' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'MEASURE_OBJECTED',
      message: expect.stringContaining('사유'),
    });
    const blank = await patchMeasure(managerA, id, measureId, { decision: 'granted', reason: '   ' });
    expect(blank.statusCode).toBe(422);
    // The handler cannot turn the reporter's objection into consent.
    const overwrite = await patchMeasure(managerA, id, measureId, { reporter_consent: true });
    expect(overwrite.statusCode).toBe(400);

    const withReason = await patchMeasure(managerA, id, measureId, {
      decision: 'granted',
      reason: '가해자와 같은 층이라 분리가 불가피합니다.',
    });
    expect(withReason.statusCode).toBe(200);
    expect(withReason.json().find((m: { id: string }) => m.id === measureId)).toMatchObject({
      decision: 'granted',
      reporter_consent: false,
    });

    // A reason recorded earlier counts as well.
    const second = (await managerA.post(`/api/v1/manager/report/${id}/measures`, { measure: 'other' })).json()
      .id;
    await reporter.post(`/api/v1/report/${id}/measures/${second}/opinion`, { consent: false });
    expect((await patchMeasure(managerA, id, second, { reason: '업무상 필요' })).statusCode).toBe(200);
    expect((await patchMeasure(managerA, id, second, { decision: 'granted' })).statusCode).toBe(200);
  });

  it('lets the anonymous reporter answer through the receipt', async () => {
    const { id, holder } = await anonymousCase();
    const measureId = (
      await managerA.post(`/api/v1/manager/report/${id}/measures`, { measure: 'separation' })
    ).json().id;
    const answered = await holder.post(`/api/v1/report/${id}/measures/${measureId}/opinion`, {
      consent: true,
    });
    expect(answered.statusCode).toBe(200);
    expect(answered.json()[0]).toMatchObject({ reporter_consent: true });
  });
});

describe('the outcome', () => {
  it('is required to take action, and to close an investigation', async () => {
    const id = await fileCase();
    expect((await patchStatus(managerA, id, { status: 'investigating' })).statusCode).toBe(200);
    const missing = await patchStatus(managerA, id, { status: 'action_taken' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details.outcome).toBeTruthy();
    const closing = await patchStatus(managerA, id, { status: 'closed' });
    expect(closing.statusCode).toBe(400);
    expect(closing.json().details.outcome).toBeTruthy();

    const badFinding = await patchStatus(managerA, id, {
      status: 'action_taken',
      outcome: { finding: 'guilty', actions: ['warning'] },
    });
    expect(badFinding.statusCode).toBe(400);
    const noActions = await patchStatus(managerA, id, {
      status: 'action_taken',
      outcome: { finding: 'substantiated', actions: [] },
    });
    expect(noActions.statusCode).toBe(400);
    const badAction = await patchStatus(managerA, id, {
      status: 'action_taken',
      outcome: { finding: 'substantiated', actions: ['flogging'] },
    });
    expect(badAction.statusCode).toBe(400);

    const recorded = await patchStatus(managerA, id, { status: 'action_taken', outcome: OUTCOME });
    expect(recorded.statusCode).toBe(200);
    expect(recorded.json().outcome).toMatchObject({
      finding: 'partially_substantiated',
      actions: ['warning', 'training'],
      summary: '경고와 교육',
      recorded_by: '김담당',
    });
    const [row] = await ctx.database.db.select().from(reports).where(eq(reports.id, id));
    expect(row!.outcomeSummary).not.toContain('경고');
    // The outcome is the feedback the deadline asks for.
    expect(row!.feedbackAt).toBeInstanceOf(Date);
    const [audit] = await audits(id, 'case.outcome');
    expect(audit).toMatchObject({
      detail: { finding: 'partially_substantiated', actions: ['warning', 'training'] },
    });

    // action_taken → closed needs no second outcome.
    expect((await patchStatus(managerA, id, { status: 'closed' })).statusCode).toBe(200);
  });

  it('shows the reporter the finding, and the summary only where the company shares it', async () => {
    const id = await fileCase();
    await patchStatus(managerA, id, { status: 'investigating' });
    await patchStatus(managerA, id, {
      status: 'closed',
      outcome: { ...OUTCOME, finding: 'not_substantiated', actions: ['none'] },
    });
    const shown = (await reporter.get(`/api/v1/report/${id}`)).json();
    expect(shown.outcome).toMatchObject({
      finding: 'not_substantiated',
      finding_label: '인정되지 않음',
      summary: '경고와 교육',
    });
    expect(shown.outcome).not.toHaveProperty('actions');
    expect(shown.is_closed).toBe(true);

    await ctx.database.db
      .update(companies)
      .set({ shareOutcomeSummary: false })
      .where(eq(companies.id, companyA));
    try {
      const hidden = (await reporter.get(`/api/v1/report/${id}`)).json();
      expect(hidden.outcome).toMatchObject({ finding_label: '인정되지 않음', summary: null });
    } finally {
      await ctx.database.db
        .update(companies)
        .set({ shareOutcomeSummary: true })
        .where(eq(companies.id, companyA));
    }
  });

  it('is refused on other transitions', async () => {
    const id = await fileCase();
    const early = await patchStatus(managerA, id, { status: 'investigating', outcome: OUTCOME });
    expect(early.statusCode).toBe(400);
  });
});

describe('a closed case', () => {
  it('takes notes and messages, but no measures, invitations or new outcome', async () => {
    const id = await fileCase();
    const measureId = (
      await managerA.post(`/api/v1/manager/report/${id}/measures`, { measure: 'other' })
    ).json().id;
    await managerA.post(`/api/v1/manager/report/${id}/invitations`, { invitations: [{ kind: 'defendant' }] });
    const invitationId = (await managerA.get(`/api/v1/manager/report/${id}`)).json().invitations[0].id;
    expect(
      (await patchStatus(managerA, id, { status: 'dismissed', internal_note: '요건 불충족' })).statusCode,
    ).toBe(200);

    const blocked = [
      await managerA.post(`/api/v1/manager/report/${id}/measures`, { measure: 'separation' }),
      await patchMeasure(managerA, id, measureId, { decision: 'refused', reason: '종결' }),
      await managerA.post(`/api/v1/manager/report/${id}/invitations`, {
        invitations: [{ kind: 'reference', name: '참고인', email: 'ref@a.example' }],
      }),
      await managerA.post(`/api/v1/manager/report/${id}/invitations/${invitationId}/resend`),
      await managerA.post(`/api/v1/manager/report/${id}/invitations/${invitationId}/revoke`),
      await patchStatus(managerA, id, { status: 'closed', outcome: OUTCOME }),
      await reporter.post(`/api/v1/report/${id}/measures/${measureId}/opinion`, { consent: true }),
    ];
    for (const response of blocked) {
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        code: 'CASE_CLOSED',
        message: expect.stringContaining('종결'),
      });
    }
    expect(
      (await managerA.post(`/api/v1/manager/report/${id}/messages`, { body: '종결 안내' })).statusCode,
    ).toBe(201);
    expect((await reporter.post(`/api/v1/report/${id}/messages`, { body: '감사합니다' })).statusCode).toBe(
      201,
    );
    // Another company's manager still sees nothing at all.
    expect(
      (await managerB.post(`/api/v1/manager/report/${id}/measures`, { measure: 'other' })).statusCode,
    ).toBe(404);
  });

  it('reopens only with a reason, recorded', async () => {
    const id = await fileCase();
    await patchStatus(managerA, id, { status: 'investigating' });
    await patchStatus(managerA, id, { status: 'closed', outcome: OUTCOME });
    const noReason = await patchStatus(managerA, id, { status: 'investigating' });
    expect(noReason.statusCode).toBe(400);
    // The message of the shared schema the manager's dialog checks with (statusChangeBodyFrom).
    expect(noReason.json().details.internal_note).toBe('사건을 다시 여는 사유를 적어주세요.');
    expect(
      (await patchStatus(managerA, id, { status: 'investigating', internal_note: '  ' })).statusCode,
    ).toBe(400);
    expect(
      (
        await managerB.request({
          method: 'PATCH',
          url: `/api/v1/manager/report/${id}`,
          json: { status: 'investigating', internal_note: '재조사' },
        })
      ).statusCode,
    ).toBe(404);

    const reopened = await patchStatus(managerA, id, {
      status: 'investigating',
      internal_note: '새 증거가 들어와 다시 조사합니다.',
    });
    expect(reopened.statusCode).toBe(200);
    const view = reopened.json();
    expect(view).toMatchObject({ status: 'investigating', closed_at: null, is_closed: false });
    expect(view.history.at(-1)).toMatchObject({
      from_status: 'closed',
      to_status: 'investigating',
      internal_note: '새 증거가 들어와 다시 조사합니다.',
    });
    expect(await audits(id, 'case.reopen')).toHaveLength(1);
    // Open again: measures can be added, and closing the investigation again records a new outcome.
    expect(
      (await managerA.post(`/api/v1/manager/report/${id}/measures`, { measure: 'other' })).statusCode,
    ).toBe(201);
    expect((await patchStatus(managerA, id, { status: 'closed' })).statusCode).toBe(400);
  });
});
