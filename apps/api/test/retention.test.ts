import fs from 'node:fs';
import path from 'node:path';
import { CASE_REFERENCE_PATTERN } from '@ansim/shared/case-reference';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseDeletions, files, reportFiles, reports } from '../src/db/schema.ts';
import { AdminCommandError } from '../src/domain/companies/admin.ts';
import { deleteExpiredCases, setCompanyRetention } from '../src/domain/reports/retention.ts';
import {
  createCompany,
  createManager,
  invitationTokenFor,
  inviteeClient,
  reportBody,
  upload,
} from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestClient, type TestContext } from './helpers.ts';

const DAY = 86_400_000;
const SENTINEL = 'RETENTION-SENTINEL-본문';

let ctx: TestContext;
let companyA: string;
let reporterA: TestClient;
let managerA: TestClient;
let reporterB: TestClient;
let managerB: TestClient;

beforeAll(async () => {
  ctx = await createTestApp();
  companyA = await createCompany(ctx, '에이 주식회사', 'a.example');
  await createCompany(ctx, '비 주식회사', 'b.example');
  reporterA = await registerAndLogin(ctx, 'reporter@a.example');
  managerA = await createManager(ctx, 'manager@a.example');
  reporterB = await registerAndLogin(ctx, 'reporter@b.example');
  managerB = await createManager(ctx, 'manager@b.example');
});
afterAll(() => ctx.close());

function storedFileCount(): number {
  const root = path.join(ctx.config.dataDir, 'files');
  if (!fs.existsSync(root)) return 0;
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== '.tmp')
    .reduce((sum, dir) => sum + fs.readdirSync(path.join(root, dir.name)).length, 0);
}

async function fileCase(reporter: TestClient, evidenceIds: string[]): Promise<string> {
  const response = await reporter.post(
    '/api/v1/report/',
    reportBody('formal', {
      acts: [{ date: '2026-10-01', location: '회의실', description: SENTINEL, evidences: evidenceIds }],
    }),
  );
  expect(response.statusCode).toBe(201);
  return response.json().id;
}

async function moveTo(manager: TestClient, reportId: string, statuses: string[]) {
  for (const status of statuses) {
    const response = await manager.request({
      method: 'PATCH',
      url: `/api/v1/manager/report/${reportId}`,
      json: {
        status,
        note_for_reporter: SENTINEL,
        internal_note: SENTINEL,
        ...(status === 'action_taken'
          ? { outcome: { finding: 'substantiated', actions: ['warning'], summary: SENTINEL } }
          : {}),
      },
    });
    expect(response.statusCode).toBe(200);
  }
}

async function closedAt(reportId: string): Promise<Date> {
  const [row] = await ctx.database.db
    .select({ closedAt: reports.closedAt })
    .from(reports)
    .where(eq(reports.id, reportId));
  return row!.closedAt!;
}

describe('retention', () => {
  it('validates the setting and records who asked for it', async () => {
    await expect(
      setCompanyRetention(ctx.database, { companyId: companyA, days: 7, setBy: 'x' }),
    ).rejects.toBeInstanceOf(AdminCommandError);
    await expect(
      setCompanyRetention(ctx.database, { companyId: companyA, days: 'abc', setBy: 'x' }),
    ).rejects.toBeInstanceOf(AdminCommandError);
    await expect(
      setCompanyRetention(ctx.database, { companyId: companyA, days: 60, setBy: ' ' }),
    ).rejects.toBeInstanceOf(AdminCommandError);
    const set = await setCompanyRetention(ctx.database, {
      companyId: companyA,
      days: '30',
      setBy: '인사팀장 hr@a.example',
    });
    expect(set).toMatchObject({ days: 30, previousDays: 1095 });
  });

  it('deletes expired closed and dismissed cases with their files, keeps a record without content', async () => {
    const shared = (await upload(reporterA, '공유.txt', Buffer.from('두 사건에 쓰인 증거'))).json();
    const own = (await upload(reporterA, '단독.txt', Buffer.from('한 사건의 증거'))).json();
    const closedCase = await fileCase(reporterA, [shared.id, own.id]);
    const dismissedCase = await fileCase(reporterA, []);
    // A file two cases cite: only possible for citations from before one-file-one-report (migration 0007).
    const openCase = await fileCase(reporterA, []);
    await ctx.database.db.insert(reportFiles).values({ reportId: openCase, fileId: shared.id, legacy: true });
    const otherCompanyCase = await fileCase(reporterB, []);

    // The accused person answers on the closed case, with a file of their own.
    await managerA.post(`/api/v1/manager/report/${closedCase}/invitations`, {
      invitations: [{ kind: 'defendant' }],
      share_evidence: false,
    });
    const invitee = inviteeClient(ctx, await invitationTokenFor(ctx, 'accused@a.example', 'defendant'));
    await invitee.post('/api/v1/invitation/acknowledge');
    const inviteeFile = (await upload(invitee, '반론.txt', Buffer.from('반론 자료'))).json();
    const statement = await invitee.post('/api/v1/report/', {
      report_type: 'defendant',
      reporter_name: '박행위',
      defendant_truth: 'deny',
      defendant_opinion: SENTINEL,
      defendant_evidences: [inviteeFile.id],
    });
    expect(statement.statusCode).toBe(201);
    await managerA.post(`/api/v1/manager/report/${closedCase}/messages`, { body: SENTINEL });

    await moveTo(managerA, closedCase, ['investigating', 'action_taken', 'closed']);
    await moveTo(managerA, dismissedCase, ['dismissed']);
    await moveTo(managerB, otherCompanyCase, ['dismissed']);
    const closed = await closedAt(closedCase);
    const filesBefore = storedFileCount();
    expect(filesBefore).toBe(3);

    // One day short of 30: nothing goes.
    expect(await deleteExpiredCases(ctx.app.deps, { now: new Date(closed.getTime() + 29 * DAY) })).toEqual({
      cases: 0,
      files: 0,
      fileErrors: 0,
    });

    // Two runs at once, as two API processes would: each case is deleted once.
    const now = new Date((await closedAt(dismissedCase)).getTime() + 31 * DAY);
    const runs = await Promise.all([
      deleteExpiredCases(ctx.app.deps, { now }),
      deleteExpiredCases(ctx.app.deps, { now }),
    ]);
    expect(runs[0]!.cases + runs[1]!.cases).toBe(2);
    expect(runs[0]!.files + runs[1]!.files).toBe(2);

    const left = await ctx.database.db.select({ id: reports.id }).from(reports);
    expect(left.map((row) => row.id).sort()).toEqual([openCase, otherCompanyCase].sort());
    // The evidence the open case still cites stays; the closed case's own file and the invitee's go.
    const fileRows = await ctx.database.db
      .select({ id: files.id })
      .from(files)
      .where(inArray(files.id, [shared.id, own.id, inviteeFile.id]));
    expect(fileRows.map((row) => row.id)).toEqual([shared.id]);
    expect(storedFileCount()).toBe(1);
    for (const table of [
      'report_files',
      'report_status_history',
      'report_messages',
      'protective_measures',
      'invitations',
      'statements',
    ]) {
      const orphans = await ctx.database.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM ${table} WHERE report_id = ANY($1::uuid[])`,
        [[closedCase, dismissedCase]],
      );
      expect(orphans[0]!.count, table).toBe(0);
    }

    const records = await ctx.database.db
      .select()
      .from(caseDeletions)
      .where(eq(caseDeletions.companyId, companyA))
      .orderBy(caseDeletions.closedAt);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({
      reportType: 'formal',
      finalStatus: 'closed',
      retentionDays: 30,
      retentionSetBy: '인사팀장 hr@a.example',
      filesDeleted: 2,
      deletedAt: now,
    });
    expect(records[0]!.caseNumber).toMatch(CASE_REFERENCE_PATTERN);
    expect(records[0]!.closedAt).toEqual(closed);
    expect(records[0]!.receivedAt.getTime()).toBeLessThanOrEqual(closed.getTime());
    expect(records[0]!.retentionSetAt).toBeInstanceOf(Date);
    expect(records[1]).toMatchObject({ finalStatus: 'dismissed', filesDeleted: 0 });
    const recordText = await ctx.database.query<{ row: string }>(
      'SELECT t::text AS row FROM case_deletions t',
    );
    expect(recordText.map((row) => row.row).join('\n')).not.toContain(SENTINEL);

    // Company B keeps the default three years.
    expect((await deleteExpiredCases(ctx.app.deps, { now: new Date(now.getTime() + 365 * DAY) })).cases).toBe(
      0,
    );
    expect(
      (await deleteExpiredCases(ctx.app.deps, { now: new Date(now.getTime() + 1100 * DAY) })).cases,
    ).toBe(1);
    const open = await reporterA.get(`/api/v1/report/${openCase}`);
    expect(open.statusCode).toBe(200);
    expect((await reporterA.get(`/api/v1/file/${shared.id}/`)).statusCode).toBe(200);
  });
});
