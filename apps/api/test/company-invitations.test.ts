import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, caseExclusions, companyInvitations, users } from '../src/db/schema.ts';
import { createCompanyInvitation } from '../src/domain/companies/company-invitations.ts';
import { createCompany, reportBody } from './fixtures.ts';
import {
  createTestApp,
  latestMail,
  mailsTo,
  registerAndLogin,
  STRONG_PASSWORD,
  TestClient,
  type TestContext,
} from './helpers.ts';

let ctx: TestContext;
let companyA: string;
let companyB: string;

beforeAll(async () => {
  ctx = await createTestApp();
  companyA = await createCompany(ctx, '에이 주식회사', 'inv-a.example');
  companyB = await createCompany(ctx, '비 주식회사', 'inv-b.example');
});
afterAll(() => ctx.close());

/** The token of the newest `/join/{token}` link mailed to `email`. */
export async function joinTokenFor(c: TestContext, email: string): Promise<string> {
  const mail = await latestMail(c.database, email);
  const match = mail && /\/join\/([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no /join link mailed to ${email}`);
  return match[1];
}

async function invite(email: string, role: 'investigator' | 'manager' | 'admin', companyId = companyA) {
  const { id } = await createCompanyInvitation(ctx, { companyId, email, role, invitedBy: null });
  return { id, token: await joinTokenFor(ctx, email) };
}

describe('company invitations', () => {
  it('mails a Korean link, shows the invitation, and lets a new person set a password and log in', async () => {
    const { id, token } = await invite('New.Admin@inv-a.example', 'admin');
    const mail = await latestMail(ctx.database, 'new.admin@inv-a.example');
    expect(mail!.subject).toContain('에이 주식회사');
    expect(mail!.text).toContain(`http://localhost/join/${token}`);

    const browser = new TestClient(ctx.app);
    const view = await browser.get(`/api/v1/company/invitations/${token}`);
    expect(view.statusCode).toBe(200);
    expect(view.headers['referrer-policy']).toBe('no-referrer');
    expect(view.json()).toEqual({
      company_name: '에이 주식회사',
      email: 'new.admin@inv-a.example',
      role: 'admin',
      has_account: false,
    });

    const missing = await browser.post(`/api/v1/company/invitations/${token}/accept`, {});
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().details).sort()).toEqual(['name', 'password']);

    const accepted = await browser.post(`/api/v1/company/invitations/${token}/accept`, {
      name: '관리자',
      password: STRONG_PASSWORD,
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().role).toBe('admin');
    const me = (await browser.get('/api/v1/user/')).json();
    expect(me).toMatchObject({ email: 'new.admin@inv-a.example', role: 'admin', name: '관리자' });
    expect(me.company.id).toBe(companyA);
    expect(me.mfa.required).toBe(true);
    // A handler works only after enrolling a second factor.
    const cases = await browser.get('/api/v1/manager/report/');
    expect(cases.statusCode).toBe(403);
    expect(cases.json().code).toBe('MFA_ENROLLMENT_REQUIRED');

    // Used once.
    expect((await browser.get(`/api/v1/company/invitations/${token}`)).statusCode).toBe(410);
    const again = await new TestClient(ctx.app).post(`/api/v1/company/invitations/${token}/accept`, {
      name: '다른 사람',
      password: STRONG_PASSWORD,
    });
    expect(again.statusCode).toBe(410);

    const audit = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, 'company.invitation')));
    expect(audit.map((row) => row.detail)).toEqual(
      expect.arrayContaining([
        { event: 'sent', role: 'admin' },
        { event: 'accepted', role: 'admin' },
      ]),
    );
    expect(JSON.stringify(audit)).not.toContain('new.admin');
  });

  it('answers 404 for a link that never existed and 410 for an expired or replaced one', async () => {
    const browser = new TestClient(ctx.app);
    expect((await browser.get(`/api/v1/company/invitations/${'x'.repeat(43)}`)).statusCode).toBe(404);

    const first = await invite('twice@inv-a.example', 'manager');
    const second = await invite('twice@inv-a.example', 'investigator');
    expect((await browser.get(`/api/v1/company/invitations/${first.token}`)).statusCode).toBe(410);
    expect((await browser.get(`/api/v1/company/invitations/${second.token}`)).json().role).toBe(
      'investigator',
    );
    expect(await mailsTo(ctx.database, 'twice@inv-a.example')).toHaveLength(2);

    await ctx.database.db
      .update(companyInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(companyInvitations.id, second.id));
    const expired = await browser.post(`/api/v1/company/invitations/${second.token}/accept`, {
      name: '늦은 사람',
      password: STRONG_PASSWORD,
    });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().code).toBe('INVITATION_EXPIRED');
  });

  it('refuses a common password', async () => {
    const { token } = await invite('weak@inv-a.example', 'manager');
    const response = await new TestClient(ctx.app).post(`/api/v1/company/invitations/${token}/accept`, {
      name: '약한 비번',
      password: 'password123',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().details.password).toBeDefined();
  });

  it('lets an existing account accept only while logged in as the invited address', async () => {
    const member = await registerAndLogin(ctx, 'member@inv-a.example', { name: '이직원' });
    const other = await registerAndLogin(ctx, 'other@inv-a.example');
    const { token } = await invite('member@inv-a.example', 'manager');

    const view = await new TestClient(ctx.app).get(`/api/v1/company/invitations/${token}`);
    expect(view.json().has_account).toBe(true);

    const loggedOut = await new TestClient(ctx.app).post(`/api/v1/company/invitations/${token}/accept`, {
      name: '가로채기',
      password: STRONG_PASSWORD,
    });
    expect(loggedOut.statusCode).toBe(401);
    const wrong = await other.post(`/api/v1/company/invitations/${token}/accept`, {});
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('INVITATION_WRONG_ACCOUNT');

    const before = member.cookies.get('sessionid');
    const accepted = await member.post(`/api/v1/company/invitations/${token}/accept`, {});
    expect(accepted.statusCode).toBe(200);
    // A fresh session for the new privileges.
    expect(member.cookies.get('sessionid')).not.toBe(before);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, 'member@inv-a.example'));
    expect(row).toMatchObject({ role: 'manager', companyId: companyA, name: '이직원' });
    // The password stays the account's own.
    const [otherRow] = await ctx.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'other@inv-a.example'));
    expect(otherRow!.role).toBe('member');
  });

  it('refuses with 409 a user who belongs to another company', async () => {
    const outsider = await registerAndLogin(ctx, 'someone@inv-b.example');
    const { token } = await invite('someone@inv-b.example', 'manager', companyA);
    const response = await outsider.post(`/api/v1/company/invitations/${token}/accept`, {});
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('IN_ANOTHER_COMPANY');
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, 'someone@inv-b.example'));
    expect(row).toMatchObject({ role: 'member', companyId: companyB });
  });

  it('keeps a new handler away from the cases that name them as the accused', async () => {
    const reporter = await registerAndLogin(ctx, 'reporter@inv-a.example');
    const filed = await reporter.post('/api/v1/report/', reportBody('brief', { perpetrator_name: '박행위' }));
    expect(filed.statusCode).toBe(201);
    const { token } = await invite('accused@elsewhere.example', 'investigator');
    const accepted = await new TestClient(ctx.app).post(`/api/v1/company/invitations/${token}/accept`, {
      name: '박행위',
      password: STRONG_PASSWORD,
    });
    expect(accepted.statusCode).toBe(200);
    const [user] = await ctx.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'accused@elsewhere.example'));
    expect(user).toMatchObject({ role: 'investigator', companyId: companyA });
    expect(user!.emailConfirmedAt).not.toBeNull();
    const exclusions = await ctx.database.db
      .select()
      .from(caseExclusions)
      .where(eq(caseExclusions.userId, user!.id));
    expect(exclusions.map((row) => row.reportId)).toEqual([filed.json().id]);
  });

  it('takes over an unconfirmed registration of the address', async () => {
    const squatter = new TestClient(ctx.app);
    await squatter.post('/api/v1/user/', {
      email: 'squat@inv-a.example',
      password: '다른-사람의-비밀번호-99',
      name: '선점',
    });
    const { token } = await invite('squat@inv-a.example', 'manager');
    expect((await squatter.get(`/api/v1/company/invitations/${token}`)).json().has_account).toBe(false);
    const accepted = await new TestClient(ctx.app).post(`/api/v1/company/invitations/${token}/accept`, {
      name: '진짜 주인',
      password: STRONG_PASSWORD,
    });
    expect(accepted.statusCode).toBe(200);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, 'squat@inv-a.example'));
    expect(row).toMatchObject({ name: '진짜 주인', role: 'manager', companyId: companyA });
  });
});
