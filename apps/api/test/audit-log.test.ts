import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../src/db/schema.ts';
import { createCompany, createHandler, reportBody } from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestClient, type TestContext } from './helpers.ts';

let ctx: TestContext;
let manager: { client: TestClient; id: string };
let colleague: { client: TestClient; id: string };
let caseId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '에이 주식회사', 'a.example');
  const reporter = await registerAndLogin(ctx, 'reporter@a.example');
  manager = await createHandler(ctx, 'manager@a.example', 'manager', { name: '최담당' });
  colleague = await createHandler(ctx, 'colleague@a.example', 'admin', { name: '한관리' });
  caseId = (await reporter.post('/api/v1/report/', reportBody('brief'))).json().id;
});
afterAll(() => ctx.close());

const readRows = (actorId: string) =>
  ctx.database.db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.targetId, caseId),
        eq(auditEvents.actorId, actorId),
        eq(auditEvents.action, 'report.read'),
      ),
    )
    .orderBy(auditEvents.at);

describe('audit log of a case', () => {
  it('folds five reads by one user into one row with repeat_count 5; a change splits them', async () => {
    for (let i = 0; i < 5; i++)
      expect((await manager.client.get(`/api/v1/manager/report/${caseId}`)).statusCode).toBe(200);
    let rows = await readRows(manager.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.repeatCount).toBe(5);
    expect(rows[0]!.lastAt!.getTime()).toBeGreaterThanOrEqual(rows[0]!.at.getTime());

    // Another user's reads are their own row, and do not split the first user's.
    await colleague.client.get(`/api/v1/manager/report/${caseId}`);
    await manager.client.get(`/api/v1/manager/report/${caseId}`);
    expect((await readRows(manager.id)).map((row) => row.repeatCount)).toEqual([6]);
    expect((await readRows(colleague.id)).map((row) => row.repeatCount)).toEqual([1]);

    // A change is its own row, always; the reads after it start a new row.
    const changed = await manager.client.request({
      method: 'PATCH',
      url: `/api/v1/manager/report/${caseId}`,
      json: { status: 'investigating' },
    });
    expect(changed.statusCode).toBe(200);
    await manager.client.get(`/api/v1/manager/report/${caseId}`);
    await manager.client.get(`/api/v1/manager/report/${caseId}`);
    rows = await readRows(manager.id);
    expect(rows.map((row) => row.repeatCount)).toEqual([6, 2]);
    // A change by someone else splits them too: the log says who read the case after it changed.
    await colleague.client.post(`/api/v1/manager/report/${caseId}/messages`, { body: '확인했습니다.' });
    await manager.client.get(`/api/v1/manager/report/${caseId}`);
    expect((await readRows(manager.id)).map((row) => row.repeatCount)).toEqual([6, 2, 1]);
    const changes = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, caseId), eq(auditEvents.action, 'report.status')));
    expect(changes).toHaveLength(1);
  });

  it('starts a new row once the last read is ten minutes old', async () => {
    // Age the rows instead of waiting: the window is measured from the last read of the row.
    await ctx.database.db
      .update(auditEvents)
      .set({
        at: sql`${auditEvents.at} - interval '11 minutes'`,
        lastAt: sql`${auditEvents.lastAt} - interval '11 minutes'`,
      })
      .where(eq(auditEvents.targetId, caseId));
    await manager.client.get(`/api/v1/manager/report/${caseId}`);
    expect((await readRows(manager.id)).map((row) => row.repeatCount)).toEqual([6, 2, 1, 1]);
  });

  it('shows the count in the case view and filters by action and by user', async () => {
    const view = (await colleague.client.get(`/api/v1/manager/report/${caseId}`)).json();
    const folded = view.audit.find(
      (row: { actor_id: string; repeat_count: number }) =>
        row.actor_id === manager.id && row.repeat_count === 6,
    );
    expect(folded).toMatchObject({ action: 'report.read', actor_name: '최담당' });

    const reads = await manager.client.get(
      `/api/v1/manager/report/${caseId}/audit?action=report.read&user_id=${manager.id}`,
    );
    expect(reads.statusCode).toBe(200);
    expect(reads.json().map((row: { repeat_count: number }) => row.repeat_count)).toEqual([1, 1, 2, 6]);
    const changes = (
      await manager.client.get(`/api/v1/manager/report/${caseId}/audit?action=report.status`)
    ).json();
    expect(changes).toEqual([expect.objectContaining({ action: 'report.status', actor_id: manager.id })]);
    const byColleague = (
      await manager.client.get(`/api/v1/manager/report/${caseId}/audit?user_id=${colleague.id}`)
    ).json();
    expect(new Set(byColleague.map((row: { actor_id: string }) => row.actor_id))).toEqual(
      new Set([colleague.id]),
    );
    expect(byColleague.map((row: { action: string }) => row.action)).toContain('message.create');

    const bad = await manager.client.get(`/api/v1/manager/report/${caseId}/audit?user_id=nobody`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
  });
});
