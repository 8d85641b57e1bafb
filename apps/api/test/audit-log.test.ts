import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../src/db/schema.ts';
import { foldReadStatement } from '../src/domain/audit/record-audit.ts';
import { createCompany, createHandler, reportBody } from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestClient, type TestContext } from './helpers.ts';

let ctx: TestContext;
let manager: { client: TestClient; id: string };
let colleague: { client: TestClient; id: string };
let caseId: string;
let companyId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  companyId = await createCompany(ctx, '에이 주식회사', 'a.example');
  const reporter = await registerAndLogin(ctx, 'reporter@a.example');
  manager = await createHandler(ctx, 'manager@a.example', 'manager', { name: '최담당' });
  colleague = await createHandler(ctx, 'colleague@a.example', 'admin', { name: '한관리' });
  caseId = (await reporter.post('/api/v1/report/', reportBody('brief'))).json().id;
});
afterAll(() => ctx.close());

/** One reader's audit rows of one read of one target, oldest first. */
const auditRows = (targetId: string, actorId: string, action: 'report.read' | 'report.list') =>
  ctx.database.db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.targetId, targetId),
        eq(auditEvents.actorId, actorId),
        eq(auditEvents.action, action),
      ),
    )
    .orderBy(auditEvents.at);
const readRows = (actorId: string) => auditRows(caseId, actorId, 'report.read');

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

describe('audit log of the case list', () => {
  const listRows = (actorId: string) => auditRows(companyId, actorId, 'report.list');

  it('records every read of the list, one row per manager folding their repeated reads', async () => {
    const before = (await listRows(colleague.id)).reduce((sum, row) => sum + row.repeatCount, 0);
    for (let i = 0; i < 3; i++)
      expect((await colleague.client.get('/api/v1/manager/report/?status=received')).statusCode).toBe(200);
    const rows = await listRows(colleague.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ targetType: 'company', repeatCount: before + 3 });
  });

  it('answers no page when the record of the read cannot be written', async () => {
    // The audit table refuses the list's row (as a full disk or a lost connection would fail it): the read
    // must fail with it, never hand out a page nobody will find in the log.
    await ctx.database.query(`CREATE FUNCTION refuse_list_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.action = 'report.list' THEN RAISE EXCEPTION 'audit write refused'; END IF;
        RETURN NEW;
      END $$`);
    await ctx.database.query(`CREATE TRIGGER refuse_list_audit BEFORE INSERT OR UPDATE ON audit_events
      FOR EACH ROW EXECUTE FUNCTION refuse_list_audit()`);
    try {
      for (const reader of [manager, colleague]) {
        const refused = await reader.client.get('/api/v1/manager/report/');
        expect(refused.statusCode).toBe(500);
        expect(refused.body).not.toContain(caseId);
        expect(refused.json()).not.toHaveProperty('results');
      }
    } finally {
      await ctx.database.query('DROP TRIGGER refuse_list_audit ON audit_events');
      await ctx.database.query('DROP FUNCTION refuse_list_audit()');
    }
    expect((await manager.client.get('/api/v1/manager/report/')).json().results).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: caseId })]),
    );
  });
});

describe('the fold of a repeated read, after many reads by others', () => {
  it('reads two short indexes, never the target’s whole history of reads', async () => {
    // Ten managers reading the list every ten minutes for a year leave ~500,000 `report.list` rows on the
    // company. Here 30,000 by one manager, all newer than the last read of another, who now reads again: without
    // the fold's own indexes the planner walks the company's reads or scans the table (232 ms at 800,000 rows).
    const rare = await createHandler(ctx, 'rare@a.example', 'manager', { name: '드문독자' });
    await ctx.database.query(
      `INSERT INTO audit_events (company_id, actor_id, action, target_type, target_id, at)
       SELECT $1::uuid, $2::uuid, 'report.list', 'company', $1::text, now() - interval '3 days' - g * interval '1 second'
       FROM generate_series(1, 30000) AS g
       UNION ALL
       SELECT $1::uuid, $3::uuid, 'report.list', 'company', $1::text, now() - interval '20 days'`,
      [companyId, manager.id, rare.id],
    );
    await ctx.database.query('ANALYZE audit_events');
    try {
      const statement = foldReadStatement(
        ctx.database.db,
        { companyId, actorId: rare.id, action: 'report.list', targetId: companyId },
        new Date(),
      ).toSQL();
      const [row] = await ctx.database.query<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (FORMAT JSON) ${statement.sql}`,
        statement.params as unknown[],
      );
      const plan = JSON.stringify(row?.['QUERY PLAN']);
      expect(plan).not.toContain('Seq Scan');
      expect(plan).toContain('audit_events_reads_idx');
      expect(plan).toContain('audit_events_changes_idx');
      // The fold is a named statement (decision 0021): after a few runs the database may keep one generic plan
      // for it, made without the values. That plan must read the same two indexes.
      const generic = await ctx.database.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`PREPARE fold_generic AS ${statement.sql}`));
        await tx.execute(sql.raw('SET LOCAL plan_cache_mode = force_generic_plan'));
        const values = statement.params.map((param) => `'${String(param)}'`).join(', ');
        const explained = await tx.execute(sql.raw(`EXPLAIN (FORMAT JSON) EXECUTE fold_generic(${values})`));
        await tx.execute(sql.raw('DEALLOCATE fold_generic'));
        return JSON.stringify((explained as unknown as { rows: unknown[] }).rows);
      });
      expect(generic).not.toContain('Seq Scan');
      expect(generic).toContain('audit_events_reads_idx');
      expect(generic).toContain('audit_events_changes_idx');
    } finally {
      await ctx.database.query(`DELETE FROM audit_events WHERE at < now() - interval '3 days'`);
    }
  });
});
