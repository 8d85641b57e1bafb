import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, companies, companyDomains, mailOutbox, users } from '../src/db/schema.ts';
import { createOperator } from '../src/domain/operator/create-operator.ts';
import { createCompany, createManager, createOperatorClient, reportBody, upload } from './fixtures.ts';
import {
  createTestApp,
  enrolTotp,
  latestMail,
  logIn,
  registerAndLogin,
  registeredRoutes,
  STRONG_PASSWORD,
  solveCaptcha,
  TestClient,
  type TestContext,
} from './helpers.ts';

let ctx: TestContext;
let operator: TestClient;
let companyA: string;
let reporter: TestClient;
let caseId: string;
let fileId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  companyA = await createCompany(ctx, '에이 주식회사', 'op-a.example');
  reporter = await registerAndLogin(ctx, 'reporter@op-a.example', { name: '김신고' });
  await createManager(ctx, 'manager@op-a.example');
  fileId = (await upload(reporter, '증거.txt', Buffer.from('비밀 증거 내용'))).json().id;
  const filed = await reporter.post(
    '/api/v1/report/',
    reportBody('formal', {
      acts: [
        {
          date: '2026-10-01',
          location: '회의실',
          description: '운영자가 보면 안 되는 내용',
          evidences: [fileId],
        },
      ],
    }),
  );
  expect(filed.statusCode).toBe(201);
  caseId = filed.json().id;
  operator = await createOperatorClient(ctx, 'ops@platform.example');
});
afterAll(() => ctx.close());

describe('operator:create', () => {
  it('makes an operator with no company whose mailed link opens the reset page; needs a second factor', async () => {
    const created = await createOperator(ctx, { email: 'Second.Ops@Platform.example' });
    expect(created).toEqual({ email: 'second.ops@platform.example', created: true });
    const mail = await latestMail(ctx.database, 'second.ops@platform.example');
    expect(mail!.subject).toContain('운영자');
    expect(mail!.text).toMatch(/http:\/\/localhost\/reset-password\?token=/);
    const [row] = await ctx.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'second.ops@platform.example'));
    expect(row).toMatchObject({ role: 'operator', companyId: null });

    // Again: a new link, still one account.
    expect(await createOperator(ctx, { email: 'second.ops@platform.example' })).toMatchObject({
      created: false,
    });
    // Not over someone else's account.
    await expect(createOperator(ctx, { email: 'reporter@op-a.example' })).rejects.toThrow(
      /already has an account/,
    );

    const token = /reset-password\?token=([^\s&]+)/.exec(
      (await latestMail(ctx.database, 'second.ops@platform.example'))!.text,
    )![1]!;
    const client = new TestClient(ctx.app);
    const reset = await client.post('/api/v1/user/email/reset-password', {
      token: decodeURIComponent(token),
      password: STRONG_PASSWORD,
    });
    expect(reset.statusCode).toBe(200);
    expect((await logIn(ctx, client, 'second.ops@platform.example')).statusCode).toBe(200);
    const me = (await client.get('/api/v1/user/')).json();
    expect(me).toMatchObject({ role: 'operator', company: null });
    expect(me.mfa.required).toBe(true);
    const refused = await client.get('/api/v1/operator/companies');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('MFA_ENROLLMENT_REQUIRED');
    await enrolTotp(client, 'second.ops@platform.example');
    expect((await client.get('/api/v1/operator/companies')).statusCode).toBe(200);
  });
});

describe('operator console API', () => {
  it('creates a company with its domains and mails its first admin an invitation', async () => {
    const created = await operator.post('/api/v1/operator/companies', {
      name: '새 회사',
      domains: ['New-Co.example', '@newco.co.kr'],
      admin_email: 'HR@New-Co.example',
    });
    expect(created.statusCode).toBe(201);
    const { id, join_code } = created.json();
    expect(join_code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const domains = await ctx.database.db
      .select()
      .from(companyDomains)
      .where(eq(companyDomains.companyId, id));
    expect(domains.map((d) => d.domain).sort()).toEqual(['new-co.example', 'newco.co.kr']);
    const mail = await latestMail(ctx.database, 'hr@new-co.example');
    expect(mail!.subject).toContain('새 회사');
    expect(mail!.text).toContain('운영팀');
    const token = /\/join\/([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    const view = await new TestClient(ctx.app).get(`/api/v1/company/invitations/${token}`);
    expect(view.json()).toMatchObject({ company_name: '새 회사', role: 'admin', has_account: false });
    const audit = await ctx.database.db.select().from(auditEvents).where(eq(auditEvents.companyId, id));
    expect(audit.map((row) => row.action).sort()).toEqual(['company.create', 'company.invitation']);

    // A domain another company holds is a conflict, and nothing is left half-made.
    const taken = await operator.post('/api/v1/operator/companies', {
      name: '겹치는 회사',
      domains: ['op-a.example'],
      admin_email: 'hr@other.example',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().details.domains).toContain('op-a.example');
    expect(await ctx.database.db.select().from(companies).where(eq(companies.name, '겹치는 회사'))).toEqual(
      [],
    );
    expect(await latestMail(ctx.database, 'hr@other.example')).toBeFalsy();

    const invalid = await operator.post('/api/v1/operator/companies', {
      name: '',
      domains: ['not a domain'],
      admin_email: 'nope',
    });
    expect(invalid.statusCode).toBe(400);
  });

  it('lists companies with head counts and case counts, and nothing of any case', async () => {
    const response = await operator.get('/api/v1/operator/companies');
    expect(response.statusCode).toBe(200);
    const a = response.json().find((c: { id: string }) => c.id === companyA);
    expect(a).toMatchObject({
      name: '에이 주식회사',
      domains: ['op-a.example'],
      users: { member: 1, manager: 1, investigator: 0, admin: 0 },
      cases: { total: 1, open: 1 },
      suspended_at: null,
    });
    expect(response.body).not.toContain('김신고');
    expect(response.body).not.toContain('운영자가 보면 안 되는 내용');
    expect(response.body).not.toContain('reporter@op-a.example');
  });

  it('counts cases off the statistics, equal to the cases themselves after changes and a deletion', async () => {
    const companyB = await createCompany(ctx, '비 주식회사', 'op-b.example');
    const member = await registerAndLogin(ctx, 'member@op-b.example', { name: '박직원' });
    const filed: string[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await member.post('/api/v1/report/', reportBody('brief'));
      expect(response.statusCode).toBe(201);
      filed.push(response.json().id);
    }
    // The statuses and the deletion go straight to the table, as the triggers see every writer.
    await ctx.database.query(`UPDATE reports SET status = 'closed', closed_at = now() WHERE id = $1`, [
      filed[0],
    ]);
    await ctx.database.query(`UPDATE reports SET status = 'dismissed', closed_at = now() WHERE id = $1`, [
      filed[1],
    ]);
    await ctx.database.query(`UPDATE reports SET status = 'investigating' WHERE id = $1`, [filed[2]]);
    await ctx.database.query('DELETE FROM reports WHERE id = $1', [filed[3]]);
    const live = await ctx.database.query<{ company_id: string; total: number; open: number }>(
      `SELECT company_id, count(*)::int AS total,
              (count(*) FILTER (WHERE status IN ('received', 'investigating', 'action_taken')))::int AS open
         FROM reports GROUP BY company_id`,
    );
    const listed = (await operator.get('/api/v1/operator/companies')).json() as {
      id: string;
      cases: { total: number; open: number };
    }[];
    expect(listed.find((company) => company.id === companyB)?.cases).toEqual({ total: 3, open: 1 });
    for (const company of listed) {
      const counted = live.find((row) => row.company_id === company.id);
      expect(company.cases).toEqual({ total: counted?.total ?? 0, open: counted?.open ?? 0 });
    }
  });

  it('reports outbox backlog, failed mails and storage used', async () => {
    await ctx.database.db
      .update(mailOutbox)
      .set({ status: 'failed' })
      .where(eq(mailOutbox.template, 'confirm_email'));
    const health = (await operator.get('/api/v1/operator/health')).json();
    expect(health.outbox.pending).toBeGreaterThan(0);
    expect(health.outbox.oldest_pending_seconds).toBeGreaterThanOrEqual(0);
    expect(health.outbox.failed).toBeGreaterThan(0);
    expect(health.storage.files).toBeGreaterThanOrEqual(1);
    expect(health.storage.bytes).toBeGreaterThanOrEqual('비밀 증거 내용'.length);
  });

  it('suspends a company: its users are logged out and cannot log in, its data stays; resume undoes it', async () => {
    const manager = await createManager(ctx, 'second-manager@op-a.example');
    expect((await reporter.get('/api/v1/user/')).statusCode).toBe(200);

    expect(
      (await operator.post('/api/v1/operator/companies/00000000-0000-4000-8000-000000000000/suspend'))
        .statusCode,
    ).toBe(404);
    const suspended = await operator.post(`/api/v1/operator/companies/${companyA}/suspend`);
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json().suspended_at).not.toBeNull();

    expect((await reporter.get('/api/v1/user/')).statusCode).toBe(401);
    expect((await manager.get('/api/v1/manager/report/')).statusCode).toBe(401);
    const login = await new TestClient(ctx.app).post('/api/v1/token/', {
      email: 'reporter@op-a.example',
      password: STRONG_PASSWORD,
      captcha: await solveCaptcha(ctx.app),
    });
    expect(login.statusCode).toBe(403);
    expect(login.json()).toMatchObject({ code: 'COMPANY_SUSPENDED' });
    expect(login.json().message).toContain('중지');
    // Wrong password still says only that.
    const wrong = await new TestClient(ctx.app).post('/api/v1/token/', {
      email: 'reporter@op-a.example',
      password: 'wrong-password-123',
      captcha: await solveCaptcha(ctx.app),
    });
    expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
    const listed = (await operator.get('/api/v1/operator/companies')).json();
    expect(listed.find((c: { id: string }) => c.id === companyA).cases.total).toBe(1);

    const resumed = await operator.post(`/api/v1/operator/companies/${companyA}/resume`);
    expect(resumed.json().suspended_at).toBeNull();
    const again = new TestClient(ctx.app);
    expect((await logIn(ctx, again, 'reporter@op-a.example')).statusCode).toBe(200);
    expect((await again.get(`/api/v1/report/${caseId}`)).statusCode).toBe(200);

    const audit = await ctx.database.db.select().from(auditEvents).where(eq(auditEvents.companyId, companyA));
    expect(audit.filter((row) => row.action.startsWith('company.')).map((row) => row.action)).toEqual([
      'company.suspend',
      'company.resume',
    ]);
  });

  it("lists the operator's own actions, newest first, and shows the company's admin its suspension", async () => {
    const page = (await operator.get('/api/v1/operator/audit')).json();
    // Only what an operator did: not the admin invitation made with the company, not the case reads.
    expect(
      page.results.map((entry: { action: string; company: { name: string } }) => [
        entry.action,
        entry.company.name,
      ]),
    ).toEqual([
      ['company.resume', '에이 주식회사'],
      ['company.suspend', '에이 주식회사'],
      ['company.create', '새 회사'],
    ]);
    expect(page).toMatchObject({ count: 3, page: 1 });
    expect(page.results[2]).toMatchObject({
      actor: { name: '운영자' },
      detail: { name: '새 회사', domains: ['new-co.example', 'newco.co.kr'] },
    });
    expect(JSON.stringify(page)).not.toMatch(/운영자가 보면 안 되는 내용|김신고|@op-a\.example/);
    const ofA = (await operator.get(`/api/v1/operator/audit?company_id=${companyA}`)).json();
    expect(ofA.results.map((entry: { action: string }) => entry.action)).toEqual([
      'company.resume',
      'company.suspend',
    ]);
    const creations = (await operator.get('/api/v1/operator/audit?action=company.create')).json();
    expect(creations.results.map((entry: { company: { name: string } }) => entry.company.name)).toEqual([
      '새 회사',
    ]);
    expect((await operator.get('/api/v1/operator/audit?action=report.read')).statusCode).toBe(400);
    expect((await operator.get('/api/v1/operator/audit?page=2')).json().results).toEqual([]);

    // The company's own settings log says when, and by whom, nobody could log in.
    const admin = await createManager(ctx, 'admin@op-a.example', { role: 'admin', name: '최관리' });
    const log = (await admin.get('/api/v1/company/audit')).json();
    expect(log.results.slice(0, 2)).toMatchObject([
      { action: 'company.resume', actor: { name: '운영자' }, target_type: 'company', target_id: companyA },
      { action: 'company.suspend', actor: { name: '운영자' }, target_type: 'company', target_id: companyA },
    ]);
    const suspensions = (await admin.get('/api/v1/company/audit?action=company.suspend')).json();
    expect(suspensions.count).toBe(1);
  });

  it('gives the operator no report, statement, message or file on any route', async () => {
    const ids: Record<string, string> = {
      id: caseId,
      measureId: '00000000-0000-4000-8000-000000000000',
      invitationId: '00000000-0000-4000-8000-000000000000',
      token: 'x'.repeat(43),
      code: 'nope',
    };
    const reached: string[] = [];
    for (const route of registeredRoutes(ctx.app)) {
      if (!/^\/api\/v1\/(report|manager|file|invitation|receipt)/.test(route.url)) continue;
      if (route.url.endsWith('/events')) continue;
      const url = route.url.replace(/:(\w+)/g, (_m, name: string) =>
        route.url.startsWith('/api/v1/file') && name === 'id' ? fileId : ids[name]!,
      );
      const response = await operator.request({
        method: route.method as 'GET',
        url,
        json: route.method === 'GET' ? undefined : {},
      });
      const body = response.body;
      if (
        body.includes('운영자가 보면 안 되는 내용') ||
        body.includes('비밀 증거 내용') ||
        body.includes('김신고')
      )
        reached.push(`${route.method} ${route.url}: content in ${response.statusCode}`);
      // Its own (empty) lists, and ending a receipt session it never had, are all that answers 2xx.
      const harmless = /^\/api\/v1\/(report|file)\/?$/.test(route.url) || route.url === '/api/v1/receipt';
      if (response.statusCode < 300 && !harmless)
        reached.push(`${route.method} ${route.url}: ${response.statusCode}`);
    }
    expect(reached).toEqual([]);
    // The reporter's own list routes answer the operator an empty list: it has no reports of its own.
    expect((await operator.get('/api/v1/report/')).json().results ?? []).toEqual([]);
  });
});
