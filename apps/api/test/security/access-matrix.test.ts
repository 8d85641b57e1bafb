import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, companyDomains, users } from '../../src/db/schema.ts';
import {
  anonymousDraft,
  createCompany,
  createHandler,
  createManager,
  createOperatorClient,
  invitationTokenFor,
  inviteeClient,
  multipartFile,
  reportBody,
  upload,
} from '../fixtures.ts';
import {
  createTestApp,
  registerAndLogin,
  registeredRoutes,
  solveCaptcha,
  TestClient,
  type TestContext,
} from '../helpers.ts';

/** The callers every route is tried with, in the order of each row's expected statuses. */
const CALLERS = [
  'loggedOut',
  'reporter',
  'otherReporter',
  'managerSame',
  'managerOther',
  // Another company's admin asks before company A's own, so a 404 on one of A's settings rows is its scoping,
  // not a row A's admin already removed.
  'otherCompanyAdmin',
  'admin',
  'inviteeThis',
  'inviteeOther',
  'receiptHolder',
  'operator',
] as const;
type Caller = (typeof CALLERS)[number];
type Row = [number, number, number, number, number, number, number, number, number, number, number];

/**
 * Company A's other case handlers, tried on every route too. Unless a row says otherwise (`extra`), the assigned
 * investigator is answered like `managerSame`; the unassigned investigator and the manager excluded from case A
 * (named like its accused person) like `managerOther` on a route of case A — the same 404 as another company's
 * case — and like `managerSame` elsewhere.
 */
const EXTRA_CALLERS = ['investigatorAssigned', 'investigatorUnassigned', 'excludedManager'] as const;
type ExtraCaller = (typeof EXTRA_CALLERS)[number];
/** Investigators do not assign, exclude or read the statistics; the excluded manager does, but not on case A. */
const caseManagersOnly = { investigatorAssigned: 403, investigatorUnassigned: 403, excludedManager: 404 };

interface Fixture {
  caseA: string;
  /** A pending handler invitation of company A, and a second domain of it, for the admin's removal rows. */
  pendingInvitationA: string;
  spareDomainA: string;
  fileA: string;
  measureA: string;
  /** An invitation of case A other than the one `inviteeThis` holds, for resend and revoke. */
  spareInvitationA: string;
  tokenA: string;
  intakeCodeA: string;
  /** A member of company A whom a manager may exclude from case A by hand. */
  excludableUserA: string;
  /** The investigator assigned to case A. */
  investigatorA: string;
  /** A company of its own for the operator to suspend and resume, so nobody else above is logged out. */
  companyC: string;
}

interface Call {
  url: string;
  json?: unknown;
  payload?: Buffer;
  headers?: Record<string, string>;
  /** Streams never end: their status is read over a real connection, which is then dropped. */
  stream?: boolean;
}

const everyone = (status: number): Row => [
  status,
  status,
  status,
  status,
  status,
  status,
  status,
  status,
  status,
  status,
  status,
];
/**
 * Needs a session; invitees have none, and neither has the holder of an anonymous report's receipt: outside
 * that one report a receipt counts as nothing (decision 0005).
 */
const anyUser = (ok: number): Row => [401, ok, ok, ok, ok, ok, ok, 401, 401, 401, ok];
/**
 * Manager pages of the company: a member is 403, a manager (or admin) of another company sees only their own.
 * An admin handles cases as a manager does. The platform's operator is no handler of any company: 403, never a
 * case.
 */
const managerOfAny = (ok: number): Row => [401, 403, 403, ok, ok, ok, ok, 401, 401, 401, 403];
/** One case of company A: another company's manager or admin gets 404, as if it did not exist. */
const managerOfCase = (ok: number): Row => [401, 403, 403, ok, 404, 404, ok, 401, 401, 401, 403];
/**
 * The company admin's settings (R-CO-2): the admin of company A, and another company's admin on its own
 * company (no route takes a company id, so `otherAdmin` is what that admin gets when the row names something
 * of company A). Managers, members and the operator are refused.
 */
const companyAdminOnly = (ok: number, otherAdmin = ok): Row => [
  401,
  403,
  403,
  403,
  403,
  otherAdmin,
  ok,
  401,
  401,
  401,
  403,
];
/** The reporter's own case: anyone else is 404. */
const ownerOnly = (ok: number): Row => [401, ok, 404, 404, 404, 404, 404, 401, 401, 401, 404];
/** The operator console: the platform's operator only. */
const operatorOnly = (ok: number): Row => [401, 403, 403, 403, 403, 403, 403, 401, 401, 401, ok];

let registrations = 0;

/**
 * Every route, its request against the fixture, and the expected status for each caller. Keys are the route
 * patterns as Fastify prints them; the test fails when the app has a route this table does not list.
 */
const TABLE: Record<
  string,
  { call: (f: Fixture) => Call | Promise<Call>; expect: Row; extra?: Partial<Record<ExtraCaller, number>> }
> = {
  'GET /api/csrf': { call: () => ({ url: '/api/csrf' }), expect: everyone(204) },
  'GET /api/health': { call: () => ({ url: '/api/health' }), expect: everyone(200) },
  'GET /api/ready': { call: () => ({ url: '/api/ready' }), expect: everyone(200) },
  'GET /api/docs': { call: () => ({ url: '/api/docs' }), expect: everyone(200) },
  'GET /api/docs/json': { call: () => ({ url: '/api/docs/json' }), expect: everyone(200) },
  'GET /api/docs/yaml': { call: () => ({ url: '/api/docs/yaml' }), expect: everyone(200) },
  // @fastify/swagger-ui sends the old index address on to the documentation's own page.
  'GET /api/docs/static/index.html': {
    call: () => ({ url: '/api/docs/static/index.html' }),
    expect: everyone(302),
  },
  'GET /api/docs/static/swagger-initializer.js': {
    call: () => ({ url: '/api/docs/static/swagger-initializer.js' }),
    expect: everyone(200),
  },
  'GET /api/docs/*': { call: () => ({ url: '/api/docs/static/swagger-ui.css' }), expect: everyone(200) },
  'GET /api/v1/captcha/challenge': {
    call: () => ({ url: '/api/v1/captcha/challenge' }),
    expect: everyone(200),
  },
  'GET /api/v1/site': { call: () => ({ url: '/api/v1/site/' }), expect: everyone(200) },

  'POST /api/v1/user': {
    call: () => ({
      url: '/api/v1/user/',
      json: {
        email: `matrix-${++registrations}@example.com`,
        password: '안전한-비밀번호-2026!',
        name: '가입',
      },
    }),
    expect: everyone(201),
  },
  'GET /api/v1/user': { call: () => ({ url: '/api/v1/user/' }), expect: anyUser(200) },
  'POST /api/v1/user/email/register': {
    // An address of its own per call: mails to one address are capped per hour (F8).
    call: () => ({
      url: '/api/v1/user/email/register',
      json: { email: `nobody-${++registrations}@matrix.example` },
    }),
    expect: everyone(202),
  },
  'POST /api/v1/user/email/confirm-email': {
    call: () => ({ url: '/api/v1/user/email/confirm-email', json: { token: 'x'.repeat(43) } }),
    expect: everyone(400),
  },
  'POST /api/v1/user/password/send-reset-email': {
    call: () => ({
      url: '/api/v1/user/password/send-reset-email',
      json: { email: `nobody-${++registrations}@matrix.example` },
    }),
    expect: everyone(202),
  },
  'POST /api/v1/user/email/reset-password': {
    call: () => ({
      url: '/api/v1/user/email/reset-password',
      json: { token: 'x'.repeat(43), password: '새로운-비밀번호-2026' },
    }),
    expect: everyone(400),
  },
  'POST /api/v1/token': {
    call: async () => ({
      url: '/api/v1/token/',
      json: {
        email: 'nobody@matrix.example',
        password: 'wrong-password',
        captcha: await solveCaptcha(app()),
      },
    }),
    expect: everyone(400),
  },
  'GET /api/v1/token': { call: () => ({ url: '/api/v1/token/' }), expect: anyUser(200) },
  // Second factors. No caller holds a login challenge, so the second step of a login has nothing to finish.
  'POST /api/v1/token/mfa': {
    call: () => ({ url: '/api/v1/token/mfa', json: { code: '123456' } }),
    expect: everyone(400),
  },
  'POST /api/v1/token/mfa/passkey/options': {
    call: () => ({ url: '/api/v1/token/mfa/passkey/options' }),
    expect: everyone(400),
  },
  'POST /api/v1/token/mfa/passkey/verify': {
    call: () => ({ url: '/api/v1/token/mfa/passkey/verify', json: { response: { id: 'x' } } }),
    expect: everyone(400),
  },
  // The managers have TOTP active already (fixtures enrol them): a second enrolment is a conflict.
  'POST /api/v1/user/mfa/totp': {
    call: () => ({ url: '/api/v1/user/mfa/totp/' }),
    expect: [401, 200, 200, 409, 409, 409, 409, 401, 401, 401, 409],
  },
  // Every change needs the current password: a wrong one is refused whoever asks.
  'POST /api/v1/user/mfa/totp/confirm': {
    call: () => ({
      url: '/api/v1/user/mfa/totp/confirm',
      json: { code: '123456', password: 'wrong-password' },
    }),
    expect: anyUser(400),
  },
  'DELETE /api/v1/user/mfa/totp': {
    call: () => ({ url: '/api/v1/user/mfa/totp/', json: { code: '123456', password: 'wrong-password' } }),
    expect: anyUser(400),
  },
  'POST /api/v1/user/mfa/recovery-codes': {
    call: () => ({ url: '/api/v1/user/mfa/recovery-codes', json: { password: 'wrong-password' } }),
    expect: anyUser(400),
  },
  'GET /api/v1/user/mfa/passkeys': {
    call: () => ({ url: '/api/v1/user/mfa/passkeys/' }),
    expect: anyUser(200),
  },
  'POST /api/v1/user/mfa/passkeys/registration/options': {
    call: () => ({ url: '/api/v1/user/mfa/passkeys/registration/options' }),
    expect: anyUser(200),
  },
  'POST /api/v1/user/mfa/passkeys/registration/verify': {
    call: () => ({
      url: '/api/v1/user/mfa/passkeys/registration/verify',
      json: { password: 'wrong-password', response: { id: 'x' } },
    }),
    expect: anyUser(400),
  },
  // Someone else's passkey (or none): 404 even with the right password.
  'DELETE /api/v1/user/mfa/passkeys/:id': {
    call: () => ({
      url: '/api/v1/user/mfa/passkeys/00000000-0000-4000-8000-000000000000',
      json: { password: '안전한-비밀번호-2026!' },
    }),
    expect: anyUser(404),
  },

  'POST /api/v1/file': {
    call: () => ({ url: '/api/v1/file/', ...multipartFile('메모.txt', Buffer.from('메모')) }),
    // Invitees upload evidence for their statement, owned by their invitation.
    expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, 401, 201],
  },
  'GET /api/v1/file': {
    call: () => ({ url: '/api/v1/file/' }),
    expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 401, 200],
  },
  'GET /api/v1/file/:id': {
    call: (f) => ({ url: `/api/v1/file/${f.fileA}/` }),
    // The accused sees the evidence of their case because the manager chose to share it. The operator never.
    expect: [401, 200, 404, 200, 404, 404, 200, 200, 404, 404, 404],
    extra: { investigatorUnassigned: 404, excludedManager: 404 },
  },
  'DELETE /api/v1/file/:id': {
    call: (f) => ({ url: `/api/v1/file/${f.fileA}/` }),
    expect: [401, 409, 404, 404, 404, 404, 404, 404, 404, 401, 404],
  },

  'POST /api/v1/report': {
    call: () => ({ url: '/api/v1/report/', json: reportBody('brief') }),
    // With an invitation token the only thing one may file is that invitation's statement. The operator belongs
    // to no company: nothing to report to (403 NO_COMPANY).
    expect: [401, 201, 201, 201, 201, 201, 201, 400, 400, 401, 403],
  },
  'GET /api/v1/report': { call: () => ({ url: '/api/v1/report/' }), expect: anyUser(200) },
  'GET /api/v1/report/:id': { call: (f) => ({ url: `/api/v1/report/${f.caseA}` }), expect: ownerOnly(200) },
  'GET /api/v1/report/:id/events': {
    call: (f) => ({ url: `/api/v1/report/${f.caseA}/events`, stream: true }),
    expect: ownerOnly(200),
  },
  'GET /api/v1/report/:id/messages': {
    call: (f) => ({ url: `/api/v1/report/${f.caseA}/messages` }),
    expect: ownerOnly(200),
  },
  'POST /api/v1/report/:id/messages': {
    call: (f) => ({ url: `/api/v1/report/${f.caseA}/messages`, json: { body: '추가로 말씀드립니다.' } }),
    expect: ownerOnly(201),
  },
  'POST /api/v1/report/:id/measures/:measureId/opinion': {
    call: (f) => ({
      url: `/api/v1/report/${f.caseA}/measures/${f.measureA}/opinion`,
      json: { consent: false, opinion: '지금 자리가 편합니다.' },
    }),
    expect: ownerOnly(200),
  },

  'GET /api/v1/manager/report': {
    call: () => ({ url: '/api/v1/manager/report/' }),
    expect: managerOfAny(200),
  },
  'GET /api/v1/manager/report/export.csv': {
    call: () => ({ url: '/api/v1/manager/report/export.csv' }),
    expect: managerOfAny(200),
  },
  'GET /api/v1/manager/stats/reports': {
    call: () => ({ url: '/api/v1/manager/stats/reports' }),
    expect: managerOfAny(200),
    extra: { investigatorAssigned: 403, investigatorUnassigned: 403 },
  },
  'GET /api/v1/manager/report/:id': {
    call: (f) => ({ url: `/api/v1/manager/report/${f.caseA}` }),
    expect: managerOfCase(200),
  },
  'GET /api/v1/manager/report/:id/record.pdf': {
    call: (f) => ({ url: `/api/v1/manager/report/${f.caseA}/record.pdf` }),
    expect: managerOfCase(200),
  },
  'PATCH /api/v1/manager/report/:id': {
    call: (f) => ({ url: `/api/v1/manager/report/${f.caseA}`, json: { status: 'investigating' } }),
    // The manager moved the case first: the admin and the assigned investigator pass every access check and
    // meet the status rule (409 INVALID_TRANSITION), where a caller without access is 403 or 404.
    expect: [401, 403, 403, 200, 404, 404, 409, 401, 401, 401, 403],
    extra: { investigatorAssigned: 409 },
  },
  'GET /api/v1/manager/report/:id/messages': {
    call: (f) => ({ url: `/api/v1/manager/report/${f.caseA}/messages` }),
    expect: managerOfCase(200),
  },
  'POST /api/v1/manager/report/:id/messages': {
    call: (f) => ({ url: `/api/v1/manager/report/${f.caseA}/messages`, json: { body: '확인했습니다.' } }),
    expect: managerOfCase(201),
  },
  'POST /api/v1/manager/report/:id/measures': {
    call: (f) => ({ url: `/api/v1/manager/report/${f.caseA}/measures`, json: { measure: 'paid_leave' } }),
    expect: managerOfCase(201),
  },
  'PATCH /api/v1/manager/report/:id/measures/:measureId': {
    call: (f) => ({
      url: `/api/v1/manager/report/${f.caseA}/measures/${f.measureA}`,
      // Not the consent: the reporter answered for themselves above, which a handler cannot overwrite.
      json: { decision: 'pending' },
    }),
    expect: managerOfCase(200),
  },
  'GET /api/v1/manager/report/:id/events': {
    call: (f) => ({ url: `/api/v1/manager/report/${f.caseA}/events`, stream: true }),
    expect: managerOfCase(200),
  },
  'GET /api/v1/manager/report/:id/audit': {
    call: (f) => ({ url: `/api/v1/manager/report/${f.caseA}/audit?action=report.read` }),
    expect: managerOfCase(200),
  },
  'PUT /api/v1/manager/report/:id/assignees': {
    // The same assignment again, so the assigned investigator keeps case A for the rows after this one.
    call: (f) => ({
      url: `/api/v1/manager/report/${f.caseA}/assignees`,
      json: { user_ids: [f.investigatorA] },
    }),
    expect: managerOfCase(200),
    extra: caseManagersOnly,
  },
  'POST /api/v1/manager/report/:id/exclusions': {
    call: (f) => ({
      url: `/api/v1/manager/report/${f.caseA}/exclusions`,
      json: { user_id: f.excludableUserA },
    }),
    expect: managerOfCase(201),
    extra: caseManagersOnly,
  },
  'POST /api/v1/manager/report/:id/invitations': {
    call: (f) => ({
      url: `/api/v1/manager/report/${f.caseA}/invitations`,
      json: { invitations: [{ kind: 'reference', name: '추가 참고인', email: 'extra@a.example' }] },
    }),
    expect: managerOfCase(201),
  },
  'POST /api/v1/manager/report/:id/invitations/:invitationId/resend': {
    call: (f) => ({ url: `/api/v1/manager/report/${f.caseA}/invitations/${f.spareInvitationA}/resend` }),
    expect: managerOfCase(200),
  },
  'POST /api/v1/manager/report/:id/invitations/:invitationId/revoke': {
    call: (f) => ({ url: `/api/v1/manager/report/${f.caseA}/invitations/${f.spareInvitationA}/revoke` }),
    expect: managerOfCase(200),
  },

  'GET /api/v1/company/settings': {
    call: () => ({ url: '/api/v1/company/settings' }),
    expect: companyAdminOnly(200),
  },
  'PATCH /api/v1/company/settings': {
    call: () => ({ url: '/api/v1/company/settings', json: { ack_deadline_days: 7 } }),
    expect: companyAdminOnly(200),
  },
  // Each admin rotates its own company's code; the intake code the fixture's other rows use stays.
  'POST /api/v1/company/join-code/rotate': {
    call: () => ({ url: '/api/v1/company/join-code/rotate' }),
    expect: companyAdminOnly(200),
  },
  'GET /api/v1/company/people': {
    call: () => ({ url: '/api/v1/company/people' }),
    expect: companyAdminOnly(200),
  },
  // Company A's member, left a member: another company's admin finds no such person.
  'PATCH /api/v1/company/people/:id': {
    call: (f) => ({ url: `/api/v1/company/people/${f.excludableUserA}`, json: { role: 'member' } }),
    expect: companyAdminOnly(200, 404),
  },
  'GET /api/v1/company/invitations': {
    call: () => ({ url: '/api/v1/company/invitations' }),
    expect: companyAdminOnly(200),
  },
  'POST /api/v1/company/invitations': {
    call: () => ({
      url: '/api/v1/company/invitations',
      json: { email: `handler-${++registrations}@a.example`, role: 'manager' },
    }),
    expect: companyAdminOnly(201),
  },
  'DELETE /api/v1/company/pending-invitations/:id': {
    call: (f) => ({ url: `/api/v1/company/pending-invitations/${f.pendingInvitationA}` }),
    expect: companyAdminOnly(204, 404),
  },
  'GET /api/v1/company/domains': {
    call: () => ({ url: '/api/v1/company/domains' }),
    expect: companyAdminOnly(200),
  },
  // A claim for one's own company: the proof mail goes to the address at the domain.
  'POST /api/v1/company/domains': {
    call: () => {
      const domain = `claim-${++registrations}.example`;
      return { url: '/api/v1/company/domains', json: { domain, email: `it@${domain}` } };
    },
    expect: companyAdminOnly(202),
  },
  'DELETE /api/v1/company/domains/:domain': {
    call: (f) => ({ url: `/api/v1/company/domains/${f.spareDomainA}` }),
    expect: companyAdminOnly(204, 404),
  },
  // The domain proof link: its token is the credential, whoever holds it (an unknown one is 400 for all).
  'GET /api/v1/company/domains/verify/:token': {
    call: () => ({ url: `/api/v1/company/domains/verify/${'x'.repeat(43)}` }),
    expect: everyone(400),
  },
  'POST /api/v1/company/domains/verify/:token': {
    call: () => ({ url: `/api/v1/company/domains/verify/${'x'.repeat(43)}` }),
    expect: everyone(400),
  },
  'GET /api/v1/company/audit': {
    call: () => ({ url: '/api/v1/company/audit' }),
    expect: companyAdminOnly(200),
  },

  // The link's token is the credential here: whoever holds it sees what the invitee is asked about.
  'GET /api/v1/invitation/:token': {
    call: (f) => ({ url: `/api/v1/invitation/${f.tokenA}` }),
    expect: everyone(200),
  },
  'POST /api/v1/invitation/acknowledge': {
    call: () => ({ url: '/api/v1/invitation/acknowledge' }),
    expect: [404, 404, 404, 404, 404, 404, 404, 200, 200, 404, 404],
  },

  // A company invitation's mailed token is the credential; an unknown one is 404 whoever asks.
  'GET /api/v1/company/invitations/:token': {
    call: () => ({ url: `/api/v1/company/invitations/${'x'.repeat(43)}` }),
    expect: everyone(404),
  },
  'POST /api/v1/company/invitations/:token/accept': {
    call: () => ({
      url: `/api/v1/company/invitations/${'x'.repeat(43)}/accept`,
      json: { name: '초대받은 사람', password: '안전한-비밀번호-2026!' },
    }),
    expect: everyone(404),
  },

  // The operator console: companies and platform health, never a case.
  'POST /api/v1/operator/companies': {
    call: () => ({
      url: '/api/v1/operator/companies',
      json: {
        name: `매트릭스 회사 ${++registrations}`,
        domains: [],
        admin_email: `admin-${registrations}@matrix.example`,
      },
    }),
    expect: operatorOnly(201),
  },
  'GET /api/v1/operator/companies': {
    call: () => ({ url: '/api/v1/operator/companies' }),
    expect: operatorOnly(200),
  },
  'POST /api/v1/operator/companies/:id/suspend': {
    call: (f) => ({ url: `/api/v1/operator/companies/${f.companyC}/suspend` }),
    expect: operatorOnly(200),
  },
  'POST /api/v1/operator/companies/:id/resume': {
    call: (f) => ({ url: `/api/v1/operator/companies/${f.companyC}/resume` }),
    expect: operatorOnly(200),
  },
  'GET /api/v1/operator/health': {
    call: () => ({ url: '/api/v1/operator/health' }),
    expect: operatorOnly(200),
  },
  'GET /api/v1/operator/audit': {
    call: (f) => ({ url: `/api/v1/operator/audit?company_id=${f.companyC}` }),
    expect: operatorOnly(200),
  },

  // Anonymous drafts and receipts (decision 0005). A company's intake page is public, like the link it is.
  'GET /api/v1/intake/:code': {
    call: (f) => ({ url: `/api/v1/intake/${f.intakeCodeA}` }),
    expect: everyone(200),
  },
  'POST /api/v1/intake': {
    call: () => ({ url: '/api/v1/intake/', json: {} }),
    expect: [401, 201, 201, 201, 201, 201, 201, 401, 401, 401, 403],
  },
  'POST /api/v1/receipt': {
    call: async () => ({
      url: '/api/v1/receipt/',
      json: { receipt: '0000 0000 0000 0000', captcha: await solveCaptcha(app()) },
    }),
    expect: everyone(400),
  },
  'GET /api/v1/receipt': {
    call: () => ({ url: '/api/v1/receipt/' }),
    expect: [401, 401, 401, 401, 401, 401, 401, 401, 401, 200, 401],
  },
  'GET /api/v1/user/pending-receipts': {
    call: () => ({ url: '/api/v1/user/pending-receipts' }),
    expect: anyUser(200),
  },
  'DELETE /api/v1/user/pending-receipts': {
    call: () => ({ url: '/api/v1/user/pending-receipts' }),
    expect: anyUser(204),
  },
  'DELETE /api/v1/receipt': { call: () => ({ url: '/api/v1/receipt/' }), expect: everyone(204) },
  // Every signed-in caller here already belongs to a company: a join code cannot move them (409), before
  // the code is even looked up.
  'POST /api/v1/user/join': {
    call: (f) => ({ url: '/api/v1/user/join', json: { join_code: f.intakeCodeA } }),
    expect: anyUser(409),
  },
  // After every row that opens company A's intake page by its code: this closes that link (decision 0030).
  'POST /api/v1/company/intake-code/rotate': {
    call: () => ({ url: '/api/v1/company/intake-code/rotate' }),
    expect: companyAdminOnly(200),
  },

  // Last: it ends the sessions of everyone above.
  'DELETE /api/v1/token': { call: () => ({ url: '/api/v1/token/' }), expect: everyone(204) },
};

let ctx: TestContext;
const app = () => ctx.app;
let fixture: Fixture;
let callers: Record<Caller, TestClient>;
let extraCallers: Record<ExtraCaller, TestClient>;
let baseUrl: string;

/**
 * Two companies, each with a reporter's formal case citing an uploaded file and an invitation of the accused;
 * company A also has a second reporter, a protective measure and a witness invitation.
 */
beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '에이 주식회사', 'a.example');
  await createCompany(ctx, '비 주식회사', 'b.example');
  const reporter = await registerAndLogin(ctx, 'reporter@a.example');
  const otherReporter = await registerAndLogin(ctx, 'colleague@a.example');
  const reporterB = await registerAndLogin(ctx, 'reporter@b.example');
  const managerSame = await createManager(ctx, 'manager@a.example');
  const managerOther = await createManager(ctx, 'manager@b.example');
  const investigatorAssigned = await createHandler(ctx, 'investigator@a.example', 'investigator');
  const investigatorUnassigned = await createHandler(ctx, 'investigator2@a.example', 'investigator');
  // Named like the accused person of company A's cases: excluded from them when they are filed.
  const excludedManager = await createHandler(ctx, 'park@a.example', 'manager', { name: '박행위' });
  const admin = await createHandler(ctx, 'admin@a.example', 'admin', { name: '최관리' });
  const otherCompanyAdmin = await createHandler(ctx, 'admin@b.example', 'admin', { name: '정관리' });

  async function fileCase(client: TestClient, domain: string) {
    const file = (await upload(client, '증거.txt', Buffer.from('메신저 캡처 내용'))).json().id as string;
    const body = reportBody('formal', {
      perpetrator_email: `accused@${domain}`,
      acts: [{ date: '2026-10-01', location: '회의실', description: '고성과 모욕', evidences: [file] }],
    });
    const created = await client.post('/api/v1/report/', body);
    expect(created.statusCode).toBe(201);
    return { file, caseId: created.json().id as string };
  }
  const a = await fileCase(reporter, 'a.example');
  // An anonymous case of company A, whose receipt the last caller holds.
  const draft = await anonymousDraft(ctx, otherReporter);
  const anonymousCase = await draft.post('/api/v1/report/', reportBody('anonym'));
  expect(anonymousCase.statusCode).toBe(201);
  const receiptHolder = new TestClient(ctx.app);
  const opened = await receiptHolder.post('/api/v1/receipt/', {
    receipt: anonymousCase.json().receipt,
    captcha: await solveCaptcha(ctx.app),
  });
  expect(opened.statusCode).toBe(200);
  const [companyA] = await ctx.database.db
    .select()
    .from(companies)
    .where(eq(companies.name, '에이 주식회사'));
  const b = await fileCase(reporterB, 'b.example');

  expect(
    (
      await managerSame.post(`/api/v1/manager/report/${a.caseId}/invitations`, {
        invitations: [{ kind: 'defendant' }, { kind: 'reference', witness_index: 0 }],
        share_evidence: true,
      })
    ).statusCode,
  ).toBe(201);
  expect(
    (
      await managerOther.post(`/api/v1/manager/report/${b.caseId}/invitations`, {
        invitations: [{ kind: 'defendant' }],
      })
    ).statusCode,
  ).toBe(201);
  const tokenA = await invitationTokenFor(ctx, 'accused@a.example', 'defendant');
  const tokenB = await invitationTokenFor(ctx, 'accused@b.example', 'defendant');
  const caseView = (await managerSame.get(`/api/v1/manager/report/${a.caseId}`)).json();
  const spare = caseView.invitations.find((invitation: { kind: string }) => invitation.kind === 'reference');
  const assigned = await managerSame.request({
    method: 'PUT',
    url: `/api/v1/manager/report/${a.caseId}/assignees`,
    json: { user_ids: [investigatorAssigned.id] },
  });
  expect(assigned.statusCode).toBe(200);
  const measure = await managerSame.post(`/api/v1/manager/report/${a.caseId}/measures`, {
    measure: 'separation',
  });
  expect(measure.statusCode).toBe(201);

  const pendingInvitation = await admin.client.post('/api/v1/company/invitations', {
    email: 'pending-handler@a.example',
    role: 'investigator',
  });
  expect(pendingInvitation.statusCode).toBe(201);
  await ctx.database.db.insert(companyDomains).values({ domain: 'a-spare.example', companyId: companyA!.id });

  fixture = {
    caseA: a.caseId,
    pendingInvitationA: pendingInvitation.json().id,
    spareDomainA: 'a-spare.example',
    fileA: a.file,
    measureA: measure.json().id,
    spareInvitationA: spare.id,
    tokenA,
    intakeCodeA: companyA!.intakeCode,
    excludableUserA: (
      await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.email, 'colleague@a.example'))
    )[0]!.id,
    investigatorA: investigatorAssigned.id,
    companyC: await createCompany(ctx, '씨 주식회사', 'c.example'),
  };
  callers = {
    loggedOut: new TestClient(ctx.app),
    reporter,
    otherReporter,
    managerSame,
    managerOther,
    otherCompanyAdmin: otherCompanyAdmin.client,
    admin: admin.client,
    inviteeThis: inviteeClient(ctx, tokenA),
    inviteeOther: inviteeClient(ctx, tokenB),
    receiptHolder,
    operator: await createOperatorClient(ctx, 'operator@platform.example'),
  };
  extraCallers = {
    investigatorAssigned: investigatorAssigned.client,
    investigatorUnassigned: investigatorUnassigned.client,
    excludedManager: excludedManager.client,
  };
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
}, 240_000);
afterAll(() => ctx.close());

/** The status of a stream's answer over a real connection, closed as soon as the head arrived. */
async function streamStatus(client: TestClient, url: string): Promise<number> {
  const controller = new AbortController();
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await fetch(`${baseUrl}${url}`, {
    headers: { ...client.headers, ...(cookie ? { cookie } : {}) },
    signal: controller.signal,
  });
  controller.abort();
  return response.status;
}

describe('security: access matrix', () => {
  it('answers every route for every kind of caller with the expected status', async () => {
    const routes = registeredRoutes(ctx.app).map((route) => `${route.method} ${route.url}`);
    // A route added to the app without a row here fails the test, and so does a row for a route now gone.
    expect(
      routes.filter((route) => !(route in TABLE)),
      'routes missing from the table',
    ).toEqual([]);
    expect(
      Object.keys(TABLE).filter((route) => !routes.includes(route)),
      'rows for no route',
    ).toEqual([]);

    const failures: string[] = [];
    const expected = (row: (typeof TABLE)[string], call: Call, caller: Caller | ExtraCaller): number => {
      const index = (CALLERS as readonly string[]).indexOf(caller);
      if (index >= 0) return row.expect[index]!;
      const given = row.extra?.[caller as ExtraCaller];
      if (given !== undefined) return given;
      const [same, other] = [row.expect[3], row.expect[4]];
      if (caller === 'investigatorAssigned') return same;
      return call.url.includes(fixture.caseA) ? other : same;
    };
    for (const [route, row] of Object.entries(TABLE)) {
      const method = route.split(' ')[0] as 'GET';
      for (const caller of [...CALLERS, ...EXTRA_CALLERS]) {
        const client = caller in callers ? callers[caller as Caller] : extraCallers[caller as ExtraCaller];
        const call = await row.call(fixture);
        const status = call.stream
          ? await streamStatus(client, call.url)
          : (
              await client.request({
                method,
                url: call.url,
                json: call.json,
                payload: call.payload,
                headers: call.headers,
              })
            ).statusCode;
        const want = expected(row, call, caller);
        if (status !== want) failures.push(`${route} as ${caller}: ${status}, expected ${want}`);
      }
    }
    expect(failures).toEqual([]);
  }, 420_000); // 14 callers × every route: minutes on a loaded machine
});
