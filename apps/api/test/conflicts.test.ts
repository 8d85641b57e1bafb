import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, caseExclusions, reports, users } from '../src/db/schema.ts';
import { setUserRole } from '../src/domain/companies/admin.ts';
import { indexAccusedEmails } from '../src/domain/manager/conflicts.ts';
import { createCompany, createHandler, reportBody, upload } from './fixtures.ts';
import {
  createTestApp,
  enrolTotp,
  mailsTo,
  registerAndLogin,
  type TestClient,
  type TestContext,
} from './helpers.ts';

let ctx: TestContext;
let manager: { client: TestClient; id: string };
/** A manager whose name is the accused person's. */
let sameName: { client: TestClient; id: string };
/** A manager whose e-mail is the accused person's (named otherwise). */
let sameEmail: { client: TestClient; id: string };
let reporter: TestClient;
let caseId: string;
let caseNumber: string;
let fileId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '에이 주식회사', 'a.example');
  manager = await createHandler(ctx, 'manager@a.example', 'manager', { name: '최담당' });
  sameName = await createHandler(ctx, 'park@a.example', 'manager', { name: '박 행위' });
  sameEmail = await createHandler(ctx, 'accused@a.example', 'admin', { name: '홍길동' });
  reporter = await registerAndLogin(ctx, 'reporter@a.example', { name: '김신고' });
  fileId = (await upload(reporter, '증거.txt', Buffer.from('메신저 캡처'))).json().id;
  const created = await reporter.post(
    '/api/v1/report/',
    reportBody('formal', {
      perpetrator_name: '박행위',
      perpetrator_email: 'Accused@A.example',
      acts: [{ date: '2026-10-01', location: '회의실', description: '고성', evidences: [fileId] }],
    }),
  );
  expect(created.statusCode).toBe(201);
  caseId = created.json().id;
  caseNumber = (await ctx.database.db.select().from(reports).where(eq(reports.id, caseId)))[0]!.caseNumber;
});
afterAll(() => ctx.close());

describe('conflict of interest', () => {
  it('excludes a handler named like the accused, or with their e-mail, at submission, and audits it', async () => {
    const rows = await ctx.database.db
      .select()
      .from(caseExclusions)
      .where(eq(caseExclusions.reportId, caseId));
    expect(rows.map((row) => [row.userId, row.reason]).sort()).toEqual(
      [
        [sameName.id, 'accused_name'],
        [sameEmail.id, 'accused_email'],
      ].sort(),
    );
    const audit = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, caseId), eq(auditEvents.action, 'case.exclusion')));
    const byReason = (a: unknown, b: unknown) =>
      String((a as { reason: string }).reason).localeCompare(String((b as { reason: string }).reason));
    expect(audit.map((row) => row.detail).sort(byReason)).toEqual(
      [
        { user_id: sameEmail.id, reason: 'accused_email' },
        { user_id: sameName.id, reason: 'accused_name' },
      ].sort(byReason),
    );
    // Nothing about the case content in the audit row: who was kept away, and why.
    expect(JSON.stringify(audit)).not.toContain('박행위');
  });

  it('keeps the case away from them on every surface, new-case mail included', async () => {
    const newCaseMails = async (email: string) =>
      (await mailsTo(ctx.database, email)).filter((mail) => mail.template === 'new_case');
    expect((await newCaseMails('manager@a.example')).map((mail) => mail.subject).join()).toContain(
      caseNumber,
    );
    for (const [email, handler] of [
      ['park@a.example', sameName],
      ['accused@a.example', sameEmail],
    ] as const) {
      expect(await newCaseMails(email)).toEqual([]);
      const list = (await handler.client.get('/api/v1/manager/report/')).json();
      expect(list.results.map((row: { id: string }) => row.id)).not.toContain(caseId);
      const csv = await handler.client.get('/api/v1/manager/report/export.csv');
      expect(csv.statusCode).toBe(200);
      expect(csv.body).not.toContain(caseNumber);
      for (const url of [
        `/api/v1/manager/report/${caseId}`,
        `/api/v1/manager/report/${caseId}/messages`,
        `/api/v1/manager/report/${caseId}/events`,
        `/api/v1/manager/report/${caseId}/audit`,
        `/api/v1/file/${fileId}/`,
      ])
        expect((await handler.client.get(url)).statusCode, `${email} ${url}`).toBe(404);
      const changed = await handler.client.request({
        method: 'PATCH',
        url: `/api/v1/manager/report/${caseId}`,
        json: { status: 'investigating' },
      });
      expect(changed.statusCode).toBe(404);
      // Nor can a manager assign them to it.
      const assigned = await manager.client.request({
        method: 'PUT',
        url: `/api/v1/manager/report/${caseId}/assignees`,
        json: { user_ids: [handler.id] },
      });
      expect(assigned.statusCode).toBe(400);
      expect(assigned.json().code).toBe('INVALID_ASSIGNEE');
    }
    // The case view lists the exclusions for the managers who may see it.
    const view = (await manager.client.get(`/api/v1/manager/report/${caseId}`)).json();
    expect(view.exclusions.map((row: { id: string }) => row.id).sort()).toEqual(
      [sameName.id, sameEmail.id].sort(),
    );
  });

  it('excludes a user who becomes a handler (user:set-role) from the existing cases naming them', async () => {
    const colleague = await registerAndLogin(ctx, 'yoon@a.example', { name: '윤사원' });
    const other = await reporter.post(
      '/api/v1/report/',
      reportBody('brief', { perpetrator_name: '윤사원', perpetrator_email: '' }),
    );
    expect(other.statusCode).toBe(201);
    const otherId = other.json().id;
    expect(
      await ctx.database.db.select().from(caseExclusions).where(eq(caseExclusions.reportId, otherId)),
    ).toEqual([]);

    const changed = await setUserRole(ctx.database, { email: 'yoon@a.example', role: 'investigator' });
    expect(changed.role).toBe('investigator');
    const rows = await ctx.database.db
      .select()
      .from(caseExclusions)
      .where(eq(caseExclusions.reportId, otherId));
    expect(rows).toEqual([expect.objectContaining({ reason: 'accused_name', createdBy: null })]);
    const audit = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, otherId), eq(auditEvents.action, 'case.exclusion')));
    expect(audit).toEqual([
      expect.objectContaining({
        actorId: null,
        detail: { user_id: rows[0]!.userId, reason: 'accused_name' },
      }),
    ]);
    // Assigning the new investigator to the case about them is refused; to the first case it works.
    const refused = await manager.client.request({
      method: 'PUT',
      url: `/api/v1/manager/report/${otherId}/assignees`,
      json: { user_ids: [rows[0]!.userId] },
    });
    expect(refused.statusCode).toBe(400);
    const allowed = await manager.client.request({
      method: 'PUT',
      url: `/api/v1/manager/report/${caseId}/assignees`,
      json: { user_ids: [rows[0]!.userId] },
    });
    expect(allowed.statusCode).toBe(200);
    void colleague;
  });
  /** A report by the reporter naming someone else, with `email` as the accused person's address. */
  async function caseAccusing(email: string, name: string): Promise<string> {
    const created = await reporter.post(
      '/api/v1/report/',
      reportBody('brief', { perpetrator_name: name, perpetrator_email: email }),
    );
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    // A member is no handler: nobody is excluded at submission.
    expect(
      await ctx.database.db.select().from(caseExclusions).where(eq(caseExclusions.reportId, id)),
    ).toEqual([]);
    return id;
  }

  async function exclusionAudit(reportId: string) {
    return ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, reportId), eq(auditEvents.action, 'case.exclusion')));
  }

  it('excludes a member made manager in the settings from the cases, closed ones too, with their e-mail', async () => {
    const member = await registerAndLogin(ctx, 'seo.mail@a.example', { name: '서무관' });
    // Another spelling of the same address; the accused person's name is not the member's.
    const accusing = await caseAccusing(' Seo.Mail@A.example ', '정행위');
    const other = await caseAccusing('someone@a.example', '한행위');
    const dismissed = await manager.client.request({
      method: 'PATCH',
      url: `/api/v1/manager/report/${accusing}`,
      json: { status: 'dismissed', internal_note: '요건 불충족' },
    });
    expect(dismissed.statusCode).toBe(200);
    const people = (await sameEmail.client.get('/api/v1/company/people')).json();
    const memberId = people.results.find((p: { email: string }) => p.email === 'seo.mail@a.example').id;

    const promoted = await sameEmail.client.request({
      method: 'PATCH',
      url: `/api/v1/company/people/${memberId}`,
      json: { role: 'manager' },
    });
    expect(promoted.statusCode).toBe(200);
    expect(
      await ctx.database.db.select().from(caseExclusions).where(eq(caseExclusions.userId, memberId)),
    ).toEqual([expect.objectContaining({ reportId: accusing, reason: 'accused_email', createdBy: null })]);
    expect(await exclusionAudit(accusing)).toEqual([
      expect.objectContaining({ actorId: null, detail: { user_id: memberId, reason: 'accused_email' } }),
    ]);

    // As a manager they see the company's cases, but never the one about them.
    await enrolTotp(member, 'seo.mail@a.example');
    expect((await member.get(`/api/v1/manager/report/${other}`)).statusCode).toBe(200);
    const refused = await member.get(`/api/v1/manager/report/${accusing}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe('NOT_FOUND');
    const list = (await member.get('/api/v1/manager/report/')).json();
    expect(list.results.map((row: { id: string }) => row.id)).toContain(other);
    expect(list.results.map((row: { id: string }) => row.id)).not.toContain(accusing);
  });

  it('excludes a member made investigator (user:set-role) from an open case naming their e-mail', async () => {
    await registerAndLogin(ctx, 'moon@a.example', { name: '문조사' });
    const accusing = await caseAccusing('moon@a.example', '정행위');
    await setUserRole(ctx.database, { email: 'moon@a.example', role: 'investigator' });
    const rows = await ctx.database.db
      .select()
      .from(caseExclusions)
      .where(eq(caseExclusions.reportId, accusing));
    expect(rows).toEqual([expect.objectContaining({ reason: 'accused_email', createdBy: null })]);
    expect((await exclusionAudit(accusing)).map((row) => row.detail)).toEqual([
      { user_id: rows[0]!.userId, reason: 'accused_email' },
    ]);
    const assigned = await manager.client.request({
      method: 'PUT',
      url: `/api/v1/manager/report/${accusing}/assignees`,
      json: { user_ids: [rows[0]!.userId] },
    });
    expect(assigned.statusCode).toBe(400);
    expect(assigned.json().code).toBe('INVALID_ASSIGNEE');
  });

  it('indexes the accused e-mail of reports from before migration 0014 out of their sealed forms', async () => {
    await registerAndLogin(ctx, 'older@a.example', { name: '오래전' });
    const accusing = await caseAccusing('older@a.example', '정행위');
    const unrelated = await caseAccusing('', '한행위');
    // Made a handler before migration 0014, when only their name was matched: they still see the case.
    const earlier = await registerAndLogin(ctx, 'early@a.example', { name: '초기관' });
    const aboutEarly = await caseAccusing('early@a.example', '정행위');
    const [earlyUser] = await ctx.database.db
      .update(users)
      .set({ role: 'manager' })
      .where(eq(users.email, 'early@a.example'))
      .returning({ id: users.id });
    await enrolTotp(earlier, 'early@a.example');
    expect((await earlier.get(`/api/v1/manager/report/${aboutEarly}`)).statusCode).toBe(200);
    // As such reports were stored: the e-mail only inside the sealed form.
    await ctx.database.db
      .update(reports)
      .set({ accusedEmail: null, accusedEmailIndex: null })
      .where(inArray(reports.id, [accusing, unrelated, aboutEarly]));
    expect(await indexAccusedEmails(ctx.database)).toBe(3);
    expect((await earlier.get(`/api/v1/manager/report/${aboutEarly}`)).statusCode).toBe(404);
    expect(
      (await exclusionAudit(aboutEarly)).filter((row) => JSON.stringify(row.detail).includes(earlyUser!.id)),
    ).toEqual([
      expect.objectContaining({ actorId: null, detail: { user_id: earlyUser!.id, reason: 'accused_email' } }),
    ]);
    const [row] = await ctx.database.db.select().from(reports).where(eq(reports.id, accusing));
    expect(row!.accusedEmail).toMatch(/^enc2:/);
    expect(row!.accusedEmailIndex).toBeTruthy();
    // Done once: a second run finds nothing left.
    expect(await indexAccusedEmails(ctx.database)).toBe(0);

    await setUserRole(ctx.database, { email: 'older@a.example', role: 'manager' });
    expect(
      (await ctx.database.db.select().from(caseExclusions).where(eq(caseExclusions.reportId, accusing))).map(
        (exclusion) => exclusion.reason,
      ),
    ).toEqual(['accused_email']);
    expect(
      await ctx.database.db.select().from(caseExclusions).where(eq(caseExclusions.reportId, unrelated)),
    ).toEqual([]);
  });
});
