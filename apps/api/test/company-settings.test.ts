import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, companies, companyInvitations, users } from '../src/db/schema.ts';
import { sha256Hex } from '../src/lib/tokens.ts';
import { createCompany, createManager } from './fixtures.ts';
import {
  createTestApp,
  latestMail,
  mailsTo,
  registerAndLogin,
  STRONG_PASSWORD,
  TestClient,
  type TestContext,
} from './helpers.ts';

/** Every kind of caller of the company settings (docs/requirements.md R-CO-2), in the order of each row's statuses. */
const ROLES = ['stranger', 'member', 'investigator', 'manager', 'admin', 'otherAdmin', 'operator'] as const;
type RoleName = (typeof ROLES)[number];
type Row = [number, number, number, number, number, number, number];
/** Only the company's admin: everyone else is refused, and another company's admin sees only their own. */
const adminOnly = (ok: number, otherAdmin = ok): Row => [401, 403, 403, 403, ok, otherAdmin, 403];

let ctx: TestContext;
let companyA: string;
let companyB: string;
let clients: Record<RoleName, TestClient>;
const ids: Record<string, string> = {};

async function userId(email: string): Promise<string> {
  const [row] = await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

async function pendingInvitation(companyId: string, email: string): Promise<string> {
  const [row] = await ctx.database.db
    .insert(companyInvitations)
    .values({
      companyId,
      email,
      role: 'manager',
      tokenHash: sha256Hex(`${email}-${Math.random()}`),
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    .returning({ id: companyInvitations.id });
  return row!.id;
}

function claimToken(text: string): string {
  const match = /\/domains\/verify\/([A-Za-z0-9_-]+)/.exec(text);
  if (!match?.[1]) throw new Error('no domain verification link in mail');
  return match[1];
}

beforeAll(async () => {
  ctx = await createTestApp();
  companyA = await createCompany(ctx, '에이 주식회사', 'a.example');
  companyB = await createCompany(ctx, '비 주식회사', 'b.example');
  const operator = await registerAndLogin(ctx, 'operator@platform.example');
  await ctx.database.db
    .update(users)
    .set({ role: 'operator', companyId: null })
    .where(eq(users.email, 'operator@platform.example'));
  clients = {
    stranger: new TestClient(ctx.app),
    member: await registerAndLogin(ctx, 'member@a.example', { name: '이직원' }),
    investigator: await createManager(ctx, 'investigator@a.example', {
      role: 'investigator',
      name: '박조사',
    }),
    manager: await createManager(ctx, 'manager@a.example', { name: '김담당' }),
    admin: await createManager(ctx, 'admin@a.example', { role: 'admin', name: '최관리' }),
    otherAdmin: await createManager(ctx, 'admin@b.example', { role: 'admin', name: '정관리' }),
    operator,
  };
  ids.member = await userId('member@a.example');
  await registerAndLogin(ctx, 'member@b.example');
  // Seven accounts, each an argon2 hash and most a TOTP enrolment: slow on a busy machine.
}, 240_000);
afterAll(() => ctx.close());

describe('company settings: access', () => {
  it('answers every settings route for every role as the matrix says', async () => {
    const invitationA = await pendingInvitation(companyA, 'pending@a.example');
    const table: { method: string; url: string; json?: unknown; expect: Row }[] = [
      { method: 'GET', url: '/api/v1/company/settings', expect: adminOnly(200) },
      {
        method: 'PATCH',
        url: '/api/v1/company/settings',
        json: { ack_deadline_days: 7 },
        expect: adminOnly(200),
      },
      { method: 'GET', url: '/api/v1/company/people', expect: adminOnly(200) },
      // Company A's member: another company's admin finds no such person (404), never changes them.
      {
        method: 'PATCH',
        url: `/api/v1/company/people/${ids.member}`,
        json: { role: 'member' },
        expect: adminOnly(200, 404),
      },
      { method: 'GET', url: '/api/v1/company/invitations', expect: adminOnly(200) },
      {
        method: 'POST',
        url: '/api/v1/company/invitations',
        json: { email: 'matrix-invitee@a.example', role: 'investigator' },
        expect: adminOnly(201),
      },
      // Each admin rotates its own company's code (no route takes a company id).
      { method: 'POST', url: '/api/v1/company/join-code/rotate', expect: adminOnly(200) },
      { method: 'GET', url: '/api/v1/company/domains', expect: adminOnly(200) },
      // A domain a company holds already: both admins get past the role check to the conflict, and no claim,
      // mail or log row is left for the domain tests below.
      {
        method: 'POST',
        url: '/api/v1/company/domains',
        json: { domain: 'b.example', email: 'it@b.example' },
        expect: adminOnly(409),
      },
      { method: 'DELETE', url: '/api/v1/company/domains/nothing.example', expect: adminOnly(404) },
      // The proof link's token is the credential, whoever holds it: an unknown one is 400 for every role.
      {
        method: 'GET',
        url: `/api/v1/company/domains/verify/${'x'.repeat(43)}`,
        expect: [400, 400, 400, 400, 400, 400, 400],
      },
      {
        method: 'POST',
        url: `/api/v1/company/domains/verify/${'x'.repeat(43)}`,
        expect: [400, 400, 400, 400, 400, 400, 400],
      },
      { method: 'GET', url: '/api/v1/company/audit', expect: adminOnly(200) },
      // A's admin revokes A's invitation; B's admin, asking next, finds no such invitation.
      {
        method: 'DELETE',
        url: `/api/v1/company/pending-invitations/${invitationA}`,
        expect: adminOnly(204, 404),
      },
    ];
    const failures: string[] = [];
    for (const row of table) {
      for (const [index, role] of ROLES.entries()) {
        const response = await clients[role].request({
          method: row.method as 'GET',
          url: row.url,
          json: row.json,
        });
        if (response.statusCode !== row.expect[index])
          failures.push(
            `${row.method} ${row.url} as ${role}: ${response.statusCode}, expected ${row.expect[index]}`,
          );
      }
    }
    expect(failures).toEqual([]);
  });

  it("never shows another company's data to an admin", async () => {
    const people = (await clients.otherAdmin.get('/api/v1/company/people')).json().results as {
      email: string;
    }[];
    expect(people.map((p) => p.email).sort()).toEqual(['admin@b.example', 'member@b.example']);
    const settings = (await clients.otherAdmin.get('/api/v1/company/settings')).json();
    expect(settings.name).toBe('비 주식회사');
  });
});

describe('company settings: people', () => {
  it('lists people with role and MFA, and changes a role with an audit row of old and new', async () => {
    const people = (await clients.admin.get('/api/v1/company/people')).json().results as {
      id: string;
      email: string;
      role: string;
      has_mfa: boolean;
    }[];
    expect(people[0]).toMatchObject({ email: 'admin@a.example', role: 'admin', has_mfa: true });
    expect(people.find((p) => p.email === 'member@a.example')).toMatchObject({
      role: 'member',
      has_mfa: false,
    });

    const promoted = await clients.admin.request({
      method: 'PATCH',
      url: `/api/v1/company/people/${ids.member}`,
      json: { role: 'investigator' },
    });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ role: 'investigator' });
    const audit = (await clients.admin.get('/api/v1/company/audit?action=user.role')).json();
    expect(audit.results[0]).toMatchObject({
      action: 'user.role',
      actor: { name: '최관리' },
      target_name: '이직원',
      detail: { from: 'member', to: 'investigator' },
    });

    // Removing a handler: back to member.
    const removed = await clients.admin.request({
      method: 'PATCH',
      url: `/api/v1/company/people/${ids.member}`,
      json: { role: 'member' },
    });
    expect(removed.json()).toMatchObject({ role: 'member' });
  });

  it('refuses to let the last admin step down (409), and allows it once there is another', async () => {
    const adminId = await userId('admin@a.example');
    const demote = () =>
      clients.admin.request({
        method: 'PATCH',
        url: `/api/v1/company/people/${adminId}`,
        json: { role: 'manager' },
      });
    const refused = await demote();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('LAST_ADMIN');

    const managerId = await userId('manager@a.example');
    const second = await clients.admin.request({
      method: 'PATCH',
      url: `/api/v1/company/people/${managerId}`,
      json: { role: 'admin' },
    });
    expect(second.statusCode).toBe(200);
    expect((await demote()).statusCode).toBe(200);
    // The former admin is a manager now: the settings are closed to them; the new admin puts them back.
    expect((await clients.admin.get('/api/v1/company/settings')).statusCode).toBe(403);
    const back = await clients.manager.request({
      method: 'PATCH',
      url: `/api/v1/company/people/${adminId}`,
      json: { role: 'admin' },
    });
    expect(back.statusCode).toBe(200);
    await clients.admin.request({
      method: 'PATCH',
      url: `/api/v1/company/people/${managerId}`,
      json: { role: 'manager' },
    });
  });

  it('rejects an unknown role and a malformed id', async () => {
    const bad = await clients.admin.request({
      method: 'PATCH',
      url: `/api/v1/company/people/${ids.member}`,
      json: { role: 'operator' },
    });
    expect(bad.statusCode).toBe(400);
    const badId = await clients.admin.request({
      method: 'PATCH',
      url: '/api/v1/company/people/not-a-uuid',
      json: { role: 'member' },
    });
    expect(badId.statusCode).toBe(404);
  });

  it('invites a handler by mail: the invitation is pending, audited without the address', async () => {
    const sent = await clients.admin.post('/api/v1/company/invitations', {
      email: 'New.Handler@a.example',
      role: 'manager',
    });
    expect(sent.statusCode).toBe(201);
    const mail = await latestMail(ctx.database, 'new.handler@a.example');
    expect(mail!.text).toMatch(/\/join\/[A-Za-z0-9_-]+/);
    const listed = (await clients.admin.get('/api/v1/company/invitations')).json().results as {
      id: string;
      email: string;
      role: string;
      invited_by: string;
    }[];
    expect(listed.find((i) => i.id === sent.json().id)).toMatchObject({
      email: 'new.handler@a.example',
      role: 'manager',
      invited_by: '최관리',
    });
    for (const json of [
      { email: 'x@a.example', role: 'member' },
      { email: 'x@a.example', role: 'operator' },
      { email: 'not-an-address', role: 'manager' },
    ])
      expect((await clients.admin.post('/api/v1/company/invitations', json)).statusCode).toBe(400);
  });

  it('lists pending invitations of the company only, and revokes them', async () => {
    const mine = await pendingInvitation(companyA, 'invitee@a.example');
    await pendingInvitation(companyB, 'invitee@b.example');
    const listed = (await clients.admin.get('/api/v1/company/invitations')).json().results as {
      id: string;
      email: string;
    }[];
    expect(listed.map((i) => i.email)).toContain('invitee@a.example');
    expect(listed.map((i) => i.email)).not.toContain('invitee@b.example');
    expect((await clients.admin.delete(`/api/v1/company/pending-invitations/${mine}`)).statusCode).toBe(204);
    expect((await clients.admin.delete(`/api/v1/company/pending-invitations/${mine}`)).statusCode).toBe(404);
    const after = (await clients.admin.get('/api/v1/company/invitations')).json().results as { id: string }[];
    expect(after.map((i) => i.id)).not.toContain(mine);
  });
});

describe('company settings: deadlines, retention and notices', () => {
  it('changes the settings within their limits and records old and new values', async () => {
    const changed = await clients.admin.request({
      method: 'PATCH',
      url: '/api/v1/company/settings',
      json: {
        ack_deadline_days: 5,
        feedback_deadline_days: 60,
        retention_days: 730,
        notice_contact: '인사팀 02-123-4567',
        intake_help_text: '신고 내용은 인사팀 담당자만 봅니다.',
      },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      ack_deadline_days: 5,
      feedback_deadline_days: 60,
      retention_days: 730,
      retention_set_by: '최관리 (관리자 설정)',
    });
    const [row] = await ctx.database.db.select().from(companies).where(eq(companies.id, companyA));
    expect(row).toMatchObject({ ackDeadlineDays: 5, feedbackDeadlineDays: 60, retentionDays: 730 });
    const audit = (await clients.admin.get('/api/v1/company/audit?action=company.settings')).json();
    expect(audit.results[0].detail).toEqual({
      ack_deadline_days: { from: 7, to: 5 },
      feedback_deadline_days: { from: 90, to: 60 },
      retention_days: { from: 1095, to: 730 },
      notice_contact: 'changed',
      intake_help_text: 'changed',
    });

    // The intake page shows both texts.
    const intake = await new TestClient(ctx.app).get(`/api/v1/intake/${row!.intakeCode}`);
    expect(intake.json()).toMatchObject({
      help_text: '신고 내용은 인사팀 담당자만 봅니다.',
      notice_contact: '인사팀 02-123-4567',
    });
  });

  it('refuses values outside the limits, and feedback due before acknowledgement', async () => {
    for (const json of [
      { ack_deadline_days: 0 },
      { feedback_deadline_days: 181 },
      { retention_days: 29 },
      { retention_days: 3651 },
      { ack_deadline_days: 1.5 },
      { notice_contact: 'x'.repeat(301) },
      { unknown_field: 1 },
    ]) {
      const response = await clients.admin.request({
        method: 'PATCH',
        url: '/api/v1/company/settings',
        json,
      });
      expect(response.statusCode, JSON.stringify(json)).toBe(400);
    }
    const inverted = await clients.admin.request({
      method: 'PATCH',
      url: '/api/v1/company/settings',
      json: { ack_deadline_days: 20, feedback_deadline_days: 10 },
    });
    expect(inverted.statusCode).toBe(400);
    expect(inverted.json().details.feedback_deadline_days).toBeTruthy();
  });
});

describe('company settings: join code', () => {
  it('rotates the code: the old one stops working at registration, the new one works', async () => {
    const before = (await clients.admin.get('/api/v1/company/settings')).json();
    expect(before.intake_url).toMatch(/\/c\/[a-z0-9]+$/);
    const rotated = await clients.admin.post('/api/v1/company/join-code/rotate');
    expect(rotated.statusCode).toBe(200);
    const newCode = rotated.json().join_code as string;
    expect(newCode).not.toBe(before.join_code);
    expect((await clients.admin.get('/api/v1/company/settings')).json().join_code).toBe(newCode);

    const visitor = new TestClient(ctx.app);
    await visitor.post('/api/v1/user/', {
      email: 'late@elsewhere.example',
      password: STRONG_PASSWORD,
      name: '늦은 가입',
      join_code: before.join_code,
    });
    expect((await latestMail(ctx.database, 'late@elsewhere.example'))?.template).toBe('join_code_unknown');

    await registerAndLogin(ctx, 'joiner@elsewhere.example', { joinCode: newCode });
    const [joiner] = await ctx.database.db
      .select({ companyId: users.companyId })
      .from(users)
      .where(eq(users.email, 'joiner@elsewhere.example'));
    expect(joiner!.companyId).toBe(companyA);

    const [event] = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, companyA), eq(auditEvents.action, 'company.join_code')));
    // The log says that the code changed, never the code.
    expect(JSON.stringify(event)).not.toContain(newCode);
  });
});

describe('company settings: domains', () => {
  it('adds a domain only through the link mailed to an address at it', async () => {
    // A user on the domain with no company yet joins when the domain is proven.
    await registerAndLogin(ctx, 'early@a-group.example');
    const notAtDomain = await clients.admin.post('/api/v1/company/domains', {
      domain: 'a-group.example',
      email: 'it@elsewhere.example',
    });
    expect(notAtDomain.statusCode).toBe(400);
    const taken = await clients.admin.post('/api/v1/company/domains', {
      domain: 'b.example',
      email: 'it@b.example',
    });
    expect(taken.statusCode).toBe(409);

    const requested = await clients.admin.post('/api/v1/company/domains', {
      domain: '@A-Group.example',
      email: 'IT@a-group.example',
    });
    expect(requested.statusCode).toBe(202);
    const listed = (await clients.admin.get('/api/v1/company/domains')).json();
    expect(listed.domains.map((d: { domain: string }) => d.domain)).toEqual(['a.example']);
    expect(listed.pending[0]).toMatchObject({ domain: 'a-group.example', email: 'it@a-group.example' });

    const mail = await latestMail(ctx.database, 'it@a-group.example');
    expect(mail!.template).toBe('domain_claim');
    const token = claimToken(mail!.text);
    const reader = new TestClient(ctx.app);
    // Looking at the link changes nothing (mail scanners follow links).
    const described = await reader.get(`/api/v1/company/domains/verify/${token}`);
    expect(described.json()).toEqual({ domain: 'a-group.example', company: { name: '에이 주식회사' } });
    expect((await clients.admin.get('/api/v1/company/domains')).json().domains).toHaveLength(1);

    const verified = await reader.post(`/api/v1/company/domains/verify/${token}`);
    expect(verified.statusCode).toBe(200);
    expect((await reader.post(`/api/v1/company/domains/verify/${token}`)).statusCode).toBe(400);
    const after = (await clients.admin.get('/api/v1/company/domains')).json();
    expect(after.domains.map((d: { domain: string }) => d.domain)).toEqual(['a-group.example', 'a.example']);
    expect(after.pending).toEqual([]);
    const [early] = await ctx.database.db
      .select({ companyId: users.companyId })
      .from(users)
      .where(eq(users.email, 'early@a-group.example'));
    expect(early!.companyId).toBe(companyA);

    // B's admin cannot remove A's domain; A's admin can.
    expect((await clients.otherAdmin.delete('/api/v1/company/domains/a-group.example')).statusCode).toBe(404);
    expect((await clients.admin.delete('/api/v1/company/domains/a-group.example')).statusCode).toBe(204);
    const steps = (await clients.admin.get('/api/v1/company/audit?action=company.domain'))
      .json()
      .results.map((e: { detail: { step: string } }) => e.detail.step);
    expect(steps).toEqual(['removed', 'verified', 'requested']);
  });

  it('refuses an unknown token and a claim another company proved first', async () => {
    expect(
      (await new TestClient(ctx.app).post(`/api/v1/company/domains/verify/${'x'.repeat(43)}`)).statusCode,
    ).toBe(400);
    for (const admin of [clients.admin, clients.otherAdmin])
      expect(
        (
          await admin.post('/api/v1/company/domains', {
            domain: 'shared.example',
            email: 'it@shared.example',
          })
        ).statusCode,
      ).toBe(202);
    const [first, second] = (await mailsTo(ctx.database, 'it@shared.example')).map((mail) =>
      claimToken(mail.text),
    );
    expect((await new TestClient(ctx.app).post(`/api/v1/company/domains/verify/${second}`)).statusCode).toBe(
      200,
    );
    const late = await new TestClient(ctx.app).post(`/api/v1/company/domains/verify/${first}`);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('DOMAIN_TAKEN');
  });
});

describe('company settings: audit log', () => {
  it('filters by action and by who, pages, and never holds an address', async () => {
    const adminId = await userId('admin@a.example');
    const byAdmin = (await clients.admin.get(`/api/v1/company/audit?user_id=${adminId}`)).json();
    expect(byAdmin.count).toBeGreaterThan(0);
    expect(byAdmin.results.every((e: { actor: { id: string } }) => e.actor.id === adminId)).toBe(true);
    const all = await ctx.database.db.select().from(auditEvents).where(eq(auditEvents.companyId, companyA));
    expect(JSON.stringify(all)).not.toMatch(/@a(-group)?\.example/);
    expect((await clients.admin.get('/api/v1/company/audit?action=report.read')).statusCode).toBe(400);
    expect((await clients.admin.get('/api/v1/company/audit?page=99')).json().results).toEqual([]);
  });
});
