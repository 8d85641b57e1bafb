import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, users } from '../src/db/schema.ts';
import { createCompany, createHandler, reportBody, upload } from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestClient, type TestContext } from './helpers.ts';

let ctx: TestContext;
let reporter: TestClient;
let manager: { client: TestClient; id: string };
let investigator: { client: TestClient; id: string };
let otherInvestigator: { client: TestClient; id: string };
let managerB: { client: TestClient; id: string };
let caseA: string;
let caseNumberA: string;
let fileA: string;
let measureA: string;
let invitationA: string;

const assign = (client: TestClient, reportId: string, userIds: string[]) =>
  client.request({
    method: 'PUT',
    url: `/api/v1/manager/report/${reportId}/assignees`,
    json: { user_ids: userIds },
  });

beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '에이 주식회사', 'a.example');
  await createCompany(ctx, '비 주식회사', 'b.example');
  reporter = await registerAndLogin(ctx, 'reporter@a.example', { name: '김신고' });
  manager = await createHandler(ctx, 'manager@a.example', 'manager', { name: '최담당' });
  investigator = await createHandler(ctx, 'investigator@a.example', 'investigator', { name: '이조사' });
  otherInvestigator = await createHandler(ctx, 'other@a.example', 'investigator', { name: '정조사' });
  managerB = await createHandler(ctx, 'manager@b.example', 'manager', { name: '한담당' });
  fileA = (await upload(reporter, '증거.txt', Buffer.from('메신저 캡처'))).json().id;
  const created = await reporter.post(
    '/api/v1/report/',
    reportBody('formal', {
      acts: [{ date: '2026-10-01', location: '회의실', description: '고성', evidences: [fileA] }],
    }),
  );
  expect(created.statusCode).toBe(201);
  caseA = created.json().id;
  const view = (await manager.client.get(`/api/v1/manager/report/${caseA}`)).json();
  caseNumberA = view.case_number;
  measureA = (
    await manager.client.post(`/api/v1/manager/report/${caseA}/measures`, { measure: 'separation' })
  ).json().id;
  const invited = await manager.client.post(`/api/v1/manager/report/${caseA}/invitations`, {
    invitations: [{ kind: 'defendant' }],
  });
  expect(invited.statusCode).toBe(201);
  invitationA = invited.json()[0].id;
});
afterAll(() => ctx.close());

/** Every case surface of case A, as an investigator would call it. */
function caseRoutes() {
  return [
    { method: 'GET', url: `/api/v1/manager/report/${caseA}` },
    { method: 'PATCH', url: `/api/v1/manager/report/${caseA}`, json: { status: 'investigating' } },
    { method: 'GET', url: `/api/v1/manager/report/${caseA}/messages` },
    { method: 'POST', url: `/api/v1/manager/report/${caseA}/messages`, json: { body: '확인했습니다.' } },
    { method: 'POST', url: `/api/v1/manager/report/${caseA}/measures`, json: { measure: 'paid_leave' } },
    {
      method: 'PATCH',
      url: `/api/v1/manager/report/${caseA}/measures/${measureA}`,
      json: { reporter_consent: true },
    },
    {
      method: 'POST',
      url: `/api/v1/manager/report/${caseA}/invitations`,
      json: { invitations: [{ kind: 'reference', name: '참고', email: 'ref@a.example' }] },
    },
    { method: 'POST', url: `/api/v1/manager/report/${caseA}/invitations/${invitationA}/resend` },
    { method: 'POST', url: `/api/v1/manager/report/${caseA}/invitations/${invitationA}/revoke` },
    // A 404 is answered before any byte of the stream, so inject sees it.
    { method: 'GET', url: `/api/v1/manager/report/${caseA}/events` },
    { method: 'GET', url: `/api/v1/file/${fileA}/` },
  ] as const;
}

describe('case assignment', () => {
  it('keeps every case surface a 404 for an investigator the case is not assigned to', async () => {
    for (const route of caseRoutes()) {
      const response = await investigator.client.request({
        method: route.method,
        url: route.url,
        json: 'json' in route ? route.json : undefined,
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(404);
      expect(response.json().code).toBe('NOT_FOUND');
    }
    const list = (await investigator.client.get('/api/v1/manager/report/')).json();
    expect(list.count).toBe(0);
    const csv = await investigator.client.get('/api/v1/manager/report/export.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).not.toContain(caseNumberA);
    // Assigning is the managers' business: an investigator gets 403, and so do the statistics.
    expect((await assign(investigator.client, caseA, [investigator.id])).statusCode).toBe(403);
    expect((await investigator.client.get('/api/v1/manager/stats/reports')).statusCode).toBe(403);
  });

  it('lets a manager assign handlers of the company, records it, and opens the case to them', async () => {
    const view = (await manager.client.get(`/api/v1/manager/report/${caseA}`)).json();
    expect(view.can_assign).toBe(true);
    expect(view.assignees).toEqual([]);
    expect(view.assignable_handlers.map((h: { id: string }) => h.id).sort()).toEqual(
      [manager.id, investigator.id, otherInvestigator.id].sort(),
    );

    const assigned = await assign(manager.client, caseA, [investigator.id]);
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json()).toEqual([{ id: investigator.id, name: '이조사', role: 'investigator' }]);

    const seen = await investigator.client.get(`/api/v1/manager/report/${caseA}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().can_assign).toBe(false);
    expect(seen.json().assignable_handlers).toEqual([]);
    expect(seen.json().exclusions).toEqual([]);
    expect(seen.json().assignees).toEqual([{ id: investigator.id, name: '이조사', role: 'investigator' }]);
    const list = (await investigator.client.get('/api/v1/manager/report/')).json();
    expect(list.results.map((row: { id: string }) => row.id)).toEqual([caseA]);
    expect(list.results[0].is_assigned_to_me).toBe(true);
    const managerList = (await manager.client.get('/api/v1/manager/report/')).json();
    expect(managerList.results[0].is_assigned_to_me).toBe(false);
    expect((await investigator.client.get(`/api/v1/file/${fileA}/`)).statusCode).toBe(200);
    // The other investigator still sees nothing.
    expect((await otherInvestigator.client.get(`/api/v1/manager/report/${caseA}`)).statusCode).toBe(404);

    // Replacing the list: one added, one removed, in one audit row.
    expect((await assign(manager.client, caseA, [otherInvestigator.id])).statusCode).toBe(200);
    const rows = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, caseA), eq(auditEvents.action, 'case.assign')));
    expect(rows.map((row) => row.detail)).toEqual([
      { added: [investigator.id], removed: [] },
      { added: [otherInvestigator.id], removed: [investigator.id] },
    ]);
    expect((await investigator.client.get(`/api/v1/manager/report/${caseA}`)).statusCode).toBe(404);
    expect((await otherInvestigator.client.get(`/api/v1/manager/report/${caseA}`)).statusCode).toBe(200);
  });

  it('refuses members, other companies’ handlers, unknown users and excluded handlers with 400', async () => {
    const [member] = await ctx.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'reporter@a.example'));
    for (const id of [member!.id, managerB.id, '00000000-0000-4000-8000-000000000000']) {
      const response = await assign(manager.client, caseA, [id]);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'INVALID_ASSIGNEE' });
      expect(response.json().message).toMatch(/지정할 수 있습니다/);
    }
    const malformed = await assign(manager.client, caseA, ['not-a-uuid']);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('VALIDATION_ERROR');
    // Another company's manager cannot assign on this case at all.
    expect((await assign(managerB.client, caseA, [managerB.id])).statusCode).toBe(404);
  });

  it('lets a manager exclude a colleague by hand: the assignment goes, every surface is 404', async () => {
    expect((await assign(manager.client, caseA, [otherInvestigator.id])).statusCode).toBe(200);
    const excluded = await manager.client.post(`/api/v1/manager/report/${caseA}/exclusions`, {
      user_id: otherInvestigator.id,
    });
    expect(excluded.statusCode).toBe(201);
    expect(excluded.json()).toEqual([
      expect.objectContaining({ id: otherInvestigator.id, name: '정조사', reason: 'manual' }),
    ]);
    const view = (await manager.client.get(`/api/v1/manager/report/${caseA}`)).json();
    expect(view.assignees).toEqual([]);
    expect(view.assignable_handlers.map((h: { id: string }) => h.id)).not.toContain(otherInvestigator.id);
    expect(view.exclusions).toHaveLength(1);
    for (const route of caseRoutes()) {
      const response = await otherInvestigator.client.request({
        method: route.method,
        url: route.url,
        json: 'json' in route ? route.json : undefined,
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(404);
    }
    // An exclusion is never undone by an assignment.
    const reassigned = await assign(manager.client, caseA, [otherInvestigator.id]);
    expect(reassigned.statusCode).toBe(400);
    expect(reassigned.json().code).toBe('INVALID_ASSIGNEE');
    const audit = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, caseA), eq(auditEvents.action, 'case.exclusion')));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actorId).toBe(manager.id);
    expect(audit[0]!.detail).toEqual({ user_id: otherInvestigator.id, reason: 'manual' });
    // Investigators do not exclude; nobody excludes a stranger or themselves.
    expect(
      (
        await investigator.client.post(`/api/v1/manager/report/${caseA}/exclusions`, {
          user_id: manager.id,
        })
      ).statusCode,
    ).toBe(403);
    for (const id of [managerB.id, manager.id]) {
      const response = await manager.client.post(`/api/v1/manager/report/${caseA}/exclusions`, {
        user_id: id,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    }
  });
  it('keeps a closed case’s handlers: reassigning is 409 CASE_CLOSED, a conflict exclusion still goes', async () => {
    const created = await reporter.post('/api/v1/report/', reportBody('brief'));
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    expect((await assign(manager.client, id, [investigator.id])).statusCode).toBe(200);
    const status = (json: Record<string, unknown>) =>
      manager.client.request({ method: 'PATCH', url: `/api/v1/manager/report/${id}`, json });
    expect((await status({ status: 'dismissed', internal_note: '요건 불충족' })).statusCode).toBe(200);
    const assignAudits = async () =>
      (
        await ctx.database.db
          .select()
          .from(auditEvents)
          .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, 'case.assign')))
      ).length;
    const before = await assignAudits();

    for (const userIds of [[investigator.id, otherInvestigator.id], [], [investigator.id]]) {
      const refused = await assign(manager.client, id, userIds);
      expect(refused.statusCode, JSON.stringify(userIds)).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'CASE_CLOSED', message: expect.stringContaining('종결') });
    }
    const view = (await manager.client.get(`/api/v1/manager/report/${id}`)).json();
    expect(view.assignees.map((h: { id: string }) => h.id)).toEqual([investigator.id]);
    expect(await assignAudits()).toBe(before);

    // Keeping someone away protects, so it is never refused for a closed case.
    const excluded = await manager.client.post(`/api/v1/manager/report/${id}/exclusions`, {
      user_id: investigator.id,
    });
    expect(excluded.statusCode).toBe(201);
    expect((await investigator.client.get(`/api/v1/manager/report/${id}`)).statusCode).toBe(404);
    const exclusionAudit = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, 'case.exclusion')));
    expect(exclusionAudit.map((row) => row.detail)).toEqual([{ user_id: investigator.id, reason: 'manual' }]);

    // Reopened, the case takes assignments again.
    expect((await status({ status: 'investigating', internal_note: '새 증거' })).statusCode).toBe(200);
    expect((await assign(manager.client, id, [otherInvestigator.id])).statusCode).toBe(200);
  });
});
