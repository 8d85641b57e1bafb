import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, reports } from '../src/db/schema.ts';
import { setCompanyDeadlines } from '../src/domain/companies/set-company-deadlines.ts';
import { createCompany, createHandler, reportBody } from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestClient, type TestContext } from './helpers.ts';

let ctx: TestContext;
let companyId: string;
let reporter: TestClient;
let manager: { client: TestClient; id: string };

const DAY = 86_400_000;

beforeAll(async () => {
  ctx = await createTestApp();
  companyId = await createCompany(ctx, '에이 주식회사', 'a.example');
  reporter = await registerAndLogin(ctx, 'reporter@a.example', { name: '김신고' });
  manager = await createHandler(ctx, 'manager@a.example', 'manager', { name: '최담당' });
});
afterAll(() => ctx.close());

const newCase = async () => (await reporter.post('/api/v1/report/', reportBody('brief'))).json().id as string;
const view = async (id: string) => (await manager.client.get(`/api/v1/manager/report/${id}`)).json();
const patch = (id: string, json: unknown) =>
  manager.client.request({ method: 'PATCH', url: `/api/v1/manager/report/${id}`, json });
const listRow = async (id: string, query = '') =>
  (await manager.client.get(`/api/v1/manager/report/?page_size=100${query}`))
    .json()
    .results.find((row: { id: string }) => row.id === id);
/** Both deadlines passed, as if the case had waited: the dates move, not the clock. */
const bothDue = (id: string) =>
  ctx.database.db
    .update(reports)
    .set({ ackDueAt: new Date(Date.now() - 1000), feedbackDueAt: new Date(Date.now() - 1000) })
    .where(eq(reports.id, id));

describe('deadlines', () => {
  it('a status change meets the acknowledgement deadline only; the feedback deadline stays open and overdue', async () => {
    const id = await newCase();
    await bothDue(id);
    expect(await listRow(id)).toMatchObject({ is_ack_overdue: true, is_feedback_overdue: true });
    const moved = await patch(id, { status: 'investigating', note_for_reporter: '조사를 시작했습니다.' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().acknowledged_at).not.toBeNull();
    expect(moved.json().feedback_at).toBeNull();
    expect(moved.json().history.at(-1).is_feedback).toBe(false);
    expect(await listRow(id)).toMatchObject({ is_ack_overdue: false, is_feedback_overdue: true });
    expect(await listRow(id, '&overdue=true')).toBeDefined();
    // An ordinary message is not feedback either.
    await manager.client.post(`/api/v1/manager/report/${id}/messages`, { body: '면담 일정을 잡겠습니다.' });
    expect((await view(id)).feedback_at).toBeNull();
    expect(await listRow(id, '&overdue=true')).toBeDefined();

    // A note marked as feedback meets it: no longer flagged nor filtered as overdue. (Taking action needs a
    // recorded outcome, which meets it too: case-handling.test.ts. Here the note alone, on a second case.)
    const other = await newCase();
    await bothDue(other);
    const empty = await patch(other, { status: 'investigating', is_feedback: true });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details).toHaveProperty('note_for_reporter');
    const fed = await patch(other, {
      status: 'investigating',
      note_for_reporter: '조사 결과를 먼저 알려드립니다: 면담을 마쳤고 분리 조치를 했습니다.',
      is_feedback: true,
    });
    expect(fed.statusCode).toBe(200);
    expect(fed.json().feedback_at).not.toBeNull();
    expect(fed.json().history.at(-1).is_feedback).toBe(true);
    expect(await listRow(other)).toMatchObject({ is_ack_overdue: false, is_feedback_overdue: false });
    expect(await listRow(other, '&overdue=true')).toBeUndefined();
    // The first case is still waiting for its feedback.
    expect(await listRow(id, '&overdue=true')).toBeDefined();
  });

  it('a note to the reporter acknowledges the case; a message marked as feedback meets the feedback deadline', async () => {
    const id = await newCase();
    await bothDue(id);
    await manager.client.post(`/api/v1/manager/report/${id}/messages`, { body: '신고를 확인했습니다.' });
    let current = await view(id);
    expect(current.acknowledged_at).not.toBeNull();
    expect(current.feedback_at).toBeNull();
    expect(current.is_ack_overdue).toBe(false);
    expect(current.is_feedback_overdue).toBe(true);
    const feedback = await manager.client.post(`/api/v1/manager/report/${id}/messages`, {
      body: '조사 결과를 알려드립니다.',
      is_feedback: true,
    });
    expect(feedback.statusCode).toBe(201);
    expect(feedback.json().at(-1).is_feedback).toBe(true);
    current = await view(id);
    expect(current.feedback_at).not.toBeNull();
    expect(current.is_feedback_overdue).toBe(false);
    const stats = (await manager.client.get('/api/v1/manager/stats/reports')).json();
    // Of this file's three cases, only the first test's first case still waits for its feedback.
    expect(stats.overdue.feedback).toBe(1);
  });

  it('sets the company deadlines for new cases, audited with old and new values, and refuses bad values', async () => {
    const before = await newCase();
    const result = await setCompanyDeadlines(ctx.database, {
      companyId,
      ackDays: 3,
      feedbackDays: 30,
      by: manager.id,
    });
    expect(result.previous).toEqual({ ackDays: 7, feedbackDays: 90 });
    const after = await newCase();
    const [oldCase, newOne] = [await view(before), await view(after)];
    const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY);
    expect(days(oldCase.created_at, oldCase.ack_due_at)).toBe(7);
    expect(days(oldCase.created_at, oldCase.feedback_due_at)).toBe(90);
    expect(days(newOne.created_at, newOne.ack_due_at)).toBe(3);
    expect(days(newOne.created_at, newOne.feedback_due_at)).toBe(30);
    const audit = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, companyId), eq(auditEvents.action, 'company.settings')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: manager.id,
      targetId: companyId,
      detail: {
        setting: 'deadlines',
        old: { ack_days: 7, feedback_days: 90 },
        new: { ack_days: 3, feedback_days: 30 },
      },
    });

    for (const [ackDays, feedbackDays, field] of [
      [0, 90, 'ack_days'],
      [31, 90, 'ack_days'],
      [1.5, 90, 'ack_days'],
      [7, 6, 'feedback_days'],
      [7, 181, 'feedback_days'],
      [20, 10, 'feedback_days'],
    ] as const) {
      const refused = setCompanyDeadlines(ctx.database, { companyId, ackDays, feedbackDays, by: null });
      await expect(refused).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { [field]: expect.any(String) },
      });
    }
    await expect(
      setCompanyDeadlines(ctx.database, {
        companyId: '00000000-0000-4000-8000-000000000000',
        ackDays: 7,
        feedbackDays: 90,
        by: null,
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // Nothing refused was written or audited.
    expect(
      await ctx.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.companyId, companyId), eq(auditEvents.action, 'company.settings'))),
    ).toHaveLength(1);
  });
});
