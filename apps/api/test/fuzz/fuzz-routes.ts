import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { CSRF_COOKIE, CSRF_HEADER, MFA_CHALLENGE_COOKIE, SESSION_COOKIE } from '@ansim/shared/constants';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { createChallenge } from '../../src/domain/mfa/challenges.ts';
import { createSession } from '../../src/domain/sessions/sessions.ts';
import {
  createCompany,
  createManager,
  createOperatorClient,
  multipartFile,
  reportBody,
  upload,
} from '../fixtures.ts';
import {
  createTestApp,
  latestMail,
  registerAndLogin,
  registeredRoutes,
  STRONG_PASSWORD,
  type TestClient,
  type TestContext,
  tokenFromMail,
} from '../helpers.ts';
import {
  asHeaderValue,
  BAD_URL_PARTS,
  BODY_LIMIT,
  badJsonText,
  badUtf8,
  mutate,
  mutation,
  ODD_CONTENT_TYPES,
  paddedJson,
  percentEncode,
  protoInjection,
  toJsonText,
  weirdJson,
  weirdString,
  withInjectedKeys,
} from './fuzz-inputs.ts';

/** The fixed seed of every run: a finding reproduces with the same seed and run count. */
export const FUZZ_SEED = 0x5eed_7007;

type Actor = 'anonymous' | 'reporter' | 'manager' | 'invitee' | 'operator';
const ACTORS: Actor[] = ['anonymous', 'reporter', 'manager', 'invitee', 'operator'];

interface ActorState {
  cookies: Record<string, string>;
  headers: Record<string, string>;
  userId?: string;
}

export interface FuzzFixture {
  ctx: TestContext;
  actors: Record<Actor, ActorState>;
  /** Real ids per path parameter and route area, so part of the cases reach existing rows. */
  ids: {
    report: string[];
    file: string[];
    measure: string[];
    invitation: string[];
    invitationToken: string[];
    intakeCode: string[];
    /** A company with nobody in it, for the operator's suspend and resume: the fuzz company stays usable. */
    company: string[];
  };
  templates: { report: unknown[]; reporterEmail: string };
}

/** A rate limit high enough that the login route answers from its captcha check, not only with 429. */
const FUZZ_CONFIG = {
  LOGIN_LIMIT_PER_IP_PER_MINUTE: '1000',
  // Likewise for registration, re-send and reset: answered from their own checks, not only with 429.
  ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '1000000',
  JOIN_CODE_ATTEMPTS_PER_IP_PER_HOUR: '1000000',
  MAILS_PER_ADDRESS_PER_HOUR: '1000000',
  // A small per-file limit, so "1 MiB + 1" uploads exercise the 413 path and its clean-up.
  MAX_FILE_BYTES: String(BODY_LIMIT),
};

function cookiesOf(client: TestClient): Record<string, string> {
  return Object.fromEntries(client.cookies);
}

/**
 * One app with a company, a reporter with two reports and files, a manager of the same company with a
 * protective measure, and an invitee (the accused of the second report) who has acknowledged the link.
 */
export async function createFuzzFixture(): Promise<FuzzFixture> {
  const ctx = await createTestApp({ config: FUZZ_CONFIG });
  await createCompany(ctx, '퍼즈 주식회사', 'fuzz.example');
  const reporterEmail = 'reporter@fuzz.example';
  const reporter = await registerAndLogin(ctx, reporterEmail, { name: '퍼즈신고인' });
  // The company's admin: a manager who also reaches the settings routes, so those get fuzzed past the role check.
  const manager = await createManager(ctx, 'manager@fuzz.example', { role: 'admin' });

  const evidence = (await upload(reporter, '캡처.txt', Buffer.from('메신저 캡처'))).json();
  const targetReport = (await reporter.post('/api/v1/report/', reportBody('formal'))).json().id as string;
  const inviteeReport = (
    await reporter.post('/api/v1/report/', reportBody('brief', { perpetrator_email: 'accused@fuzz.example' }))
  ).json().id as string;
  const measure = await manager.post(`/api/v1/manager/report/${targetReport}/measures`, {
    measure: 'paid_leave',
    detail: '유급휴가 부여',
  });
  const sent = await manager.post(`/api/v1/manager/report/${inviteeReport}/invitations`, {
    invitations: [{ kind: 'defendant' }],
  });
  // A second invitation, on the target report, whose id the resend/revoke routes may use up.
  const spare = await manager.post(`/api/v1/manager/report/${targetReport}/invitations`, {
    invitations: [{ kind: 'reference', witness_index: 0 }],
  });
  for (const response of [measure, sent, spare])
    if (response.statusCode !== 201) throw new Error(`fixture setup failed: ${response.body}`);
  const mail = await latestMail(ctx.database, 'accused@fuzz.example');
  const invitationToken = tokenFromMail(mail!.text, '/defendant');

  const anonymousCsrf = await ctx.app.inject({ method: 'GET', url: '/api/csrf' });
  const csrf = anonymousCsrf.cookies.find((cookie) => cookie.name === CSRF_COOKIE)!.value;
  const invitee: ActorState = {
    cookies: { [CSRF_COOKIE]: csrf },
    headers: { [CSRF_HEADER]: csrf, 'x-invitation-token': invitationToken },
  };
  const acknowledged = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/invitation/acknowledge',
    headers: { ...invitee.headers, cookie: `${CSRF_COOKIE}=${csrf}` },
  });
  if (acknowledged.statusCode !== 200) throw new Error(`acknowledge failed: ${acknowledged.body}`);
  const inviteeFile = multipartFile('진술 자료.txt', Buffer.from('진술 자료'));
  const inviteeUpload = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/file/',
    payload: inviteeFile.payload,
    headers: { ...invitee.headers, ...inviteeFile.headers, cookie: `${CSRF_COOKIE}=${csrf}` },
  });
  if (inviteeUpload.statusCode !== 201) throw new Error(`invitee upload failed: ${inviteeUpload.body}`);

  const operator = await createOperatorClient(ctx, 'operator@platform.example');
  const spareCompany = await createCompany(ctx, '퍼즈 정지 회사', 'fuzz-spare.example');
  const userIds = await ctx.database.query<{ id: string; email: string }>(
    `SELECT id, email FROM users
     WHERE email IN ('reporter@fuzz.example', 'manager@fuzz.example', 'operator@platform.example')`,
  );
  const userId = (email: string) => userIds.find((row) => row.email === email)!.id;
  const asActor = (client: TestClient, email: string): ActorState => ({
    cookies: cookiesOf(client),
    headers: { [CSRF_HEADER]: client.cookies.get(CSRF_COOKIE)! },
    userId: userId(email),
  });

  const caseView = (await manager.get(`/api/v1/manager/report/${targetReport}`)).json();
  // A half-finished login of the manager, so fuzzed second-factor answers reach the code that checks them.
  const managerActor = asActor(manager, 'manager@fuzz.example');
  managerActor.cookies[MFA_CHALLENGE_COOKIE] = await createChallenge(
    ctx.database,
    managerActor.userId!,
    'login',
  );
  return {
    ctx,
    actors: {
      anonymous: { cookies: { [CSRF_COOKIE]: csrf }, headers: { [CSRF_HEADER]: csrf } },
      reporter: asActor(reporter, reporterEmail),
      manager: managerActor,
      invitee,
      operator: asActor(operator, 'operator@platform.example'),
    },
    ids: {
      report: [targetReport, inviteeReport],
      file: [evidence.id, inviteeUpload.json().id],
      measure: [measure.json().id],
      invitation: (caseView.invitations as { id: string }[]).map((invitation) => invitation.id),
      invitationToken: [invitationToken],
      intakeCode: (
        await ctx.database.query<{ intake_code: string }>('SELECT intake_code FROM companies')
      ).map((row) => row.intake_code),
      company: [spareCompany],
    },
    templates: {
      reporterEmail,
      report: [
        reportBody('formal'),
        reportBody('anonym'),
        reportBody('brief', { evidences: null }),
        {
          report_type: 'defendant',
          reporter_name: '박행위',
          defendant_truth: 'deny',
          defendant_opinion: '사실이 아닙니다.',
        },
        { report_type: 'reference', reference_witnessed: '회의실에서 고성을 들었습니다.' },
      ],
    },
  };
}

/** What the fuzzer knows of a route: bodies that pass its validation, and the query keys it reads. */
interface RouteSpec {
  /** Valid bodies, so that some cases reach the domain code; none for routes that read no body. */
  bodies?: (fixture: FuzzFixture) => unknown[];
  /** Query keys the route reads, with values it accepts. */
  query?: Record<string, string[]>;
  multipart?: boolean;
  /** Routes whose valid bodies cost an argon2 hash each: fewer of them, so a run stays short. */
  expensive?: boolean;
  /** A route answering with a stream that stays open (server-sent events). */
  eventStream?: boolean;
}

/** WebAuthn answers of the right shape whose bytes are nonsense: the parsers behind them get fuzzed too. */
const PASSKEY_ASSERTION = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
};
const PASSKEY_ATTESTATION = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: 'e30', attestationObject: 'oA', transports: ['usb'] },
};

const managerQuery = {
  status: ['received', 'investigating', 'closed'],
  type: ['anonym', 'brief', 'formal'],
  q: ['박행위', '팀장', '%', '_'],
  date_from: ['2026-01-01'],
  date_to: ['2026-12-31'],
  overdue: ['true', 'false'],
  sort: ['created_at', '-updated_at', 'case_number', 'feedback_due_at'],
  page: ['1', '2', '100000'],
  page_size: ['1', '20', '100'],
  // A well-formed cursor of a row that does not exist, one for another sort, and one that is not a cursor.
  after: [
    Buffer.from(JSON.stringify(['-created_at', '2026-01-01T00:00:00.000000Z', randomUUID()])).toString(
      'base64url',
    ),
    Buffer.from(JSON.stringify(['case_number', "2026-0001'--", randomUUID()])).toString('base64url'),
    'bm90IGEgY3Vyc29y',
  ],
  before: [
    Buffer.from(JSON.stringify(['-created_at', '2026-01-01T00:00:00.000000Z', randomUUID()])).toString(
      'base64url',
    ),
  ],
  count: ['exact', 'estimate'],
};

/**
 * Every route of the app. A route the app registers that is missing here fails the run, so a new route
 * cannot escape the fuzzer; an entry the app no longer has fails it too.
 */
export const ROUTE_SPECS: Record<string, RouteSpec> = {
  'GET /api/csrf': {},
  'GET /api/docs': {},
  'GET /api/docs/static/index.html': {},
  'GET /api/docs/static/swagger-initializer.js': {},
  'GET /api/docs/*': {},
  'GET /api/docs/json': {},
  'GET /api/docs/yaml': {},
  'GET /api/health': {},
  'GET /api/ready': {},
  'GET /api/v1/captcha/challenge': {},
  'GET /api/v1/site': {},
  'POST /api/v1/user': {
    expensive: true,
    bodies: () => [
      { email: 'new-user@fuzz.example', password: STRONG_PASSWORD, name: '새 사용자' },
      { email: 'other@elsewhere.example', password: STRONG_PASSWORD, name: '가입', join_code: 'JOIN-nope' },
    ],
  },
  'GET /api/v1/user': {},
  'POST /api/v1/user/email/register': { bodies: (f) => [{ email: f.templates.reporterEmail }] },
  'POST /api/v1/user/email/reset-password': {
    expensive: true,
    bodies: () => [{ token: 'x'.repeat(43), password: STRONG_PASSWORD }],
  },
  'POST /api/v1/user/email/confirm-email': { bodies: () => [{ token: 'y'.repeat(43) }] },
  'POST /api/v1/user/password/send-reset-email': {
    bodies: (f) => [{ email: f.templates.reporterEmail }, { email: 'nobody@fuzz.example' }],
  },
  // The captcha is never solved: a fuzzed login is refused before any password hash is computed.
  'POST /api/v1/token': {
    bodies: (f) => [
      { email: f.templates.reporterEmail, password: STRONG_PASSWORD, captcha: 'bm90IGEgY2FwdGNoYQ==' },
      {
        email: f.templates.reporterEmail,
        password: 'wrong',
        captcha: Buffer.from(
          JSON.stringify({ challenge: { parameters: { nonce: 'n' } }, solution: { counter: 1 } }),
        ).toString('base64'),
      },
    ],
  },
  'GET /api/v1/token': {},
  'DELETE /api/v1/token': {},
  'POST /api/v1/token/mfa': {
    bodies: () => [{ code: '123456' }, { code: 'ABCD-EFGH-JKMN-PQRS' }, { code: ' 12 34 56 ' }],
  },
  'POST /api/v1/token/mfa/passkey/options': {},
  'POST /api/v1/token/mfa/passkey/verify': { bodies: () => [{ response: PASSKEY_ASSERTION }] },
  'POST /api/v1/user/mfa/totp': {},
  'POST /api/v1/user/mfa/totp/confirm': {
    expensive: true,
    bodies: () => [{ code: '123456', password: STRONG_PASSWORD }],
  },
  'DELETE /api/v1/user/mfa/totp': {
    expensive: true,
    bodies: () => [
      { code: '123456', password: STRONG_PASSWORD },
      { code: 'ABCD-EFGH-JKMN-PQRS', password: STRONG_PASSWORD },
    ],
  },
  'POST /api/v1/user/mfa/recovery-codes': { expensive: true, bodies: () => [{ password: STRONG_PASSWORD }] },
  'GET /api/v1/user/mfa/passkeys': {},
  'DELETE /api/v1/user/mfa/passkeys/:id': { expensive: true, bodies: () => [{ password: STRONG_PASSWORD }] },
  'POST /api/v1/user/mfa/passkeys/registration/options': {},
  'POST /api/v1/user/mfa/passkeys/registration/verify': {
    expensive: true,
    bodies: () => [{ password: STRONG_PASSWORD, name: '보안 키', response: PASSKEY_ATTESTATION }],
  },
  'POST /api/v1/file': { multipart: true },
  'GET /api/v1/file': {},
  'GET /api/v1/file/:id': {},
  'DELETE /api/v1/file/:id': {},
  'POST /api/v1/report': { bodies: (f) => f.templates.report },
  'GET /api/v1/report': { query: { page: ['1', '2'], page_size: ['1', '20', '100'] } },
  'GET /api/v1/report/:id': {},
  'GET /api/v1/report/:id/events': { eventStream: true },
  'GET /api/v1/report/:id/messages': {},
  'POST /api/v1/report/:id/messages': {
    bodies: (f) => [
      { body: '조사 일정이 궁금합니다.' },
      { body: '녹음 파일입니다.', files: f.ids.file.slice(0, 1) },
    ],
  },
  'POST /api/v1/report/:id/measures/:measureId/opinion': {
    bodies: () => [{ consent: true }, { consent: false, opinion: '다른 부서로 옮기고 싶지 않습니다.' }],
  },
  'GET /api/v1/manager/report': { query: managerQuery },
  'GET /api/v1/manager/report/export.csv': { query: managerQuery },
  'GET /api/v1/manager/report/:id': {},
  'GET /api/v1/manager/report/:id/record.pdf': {},
  'PATCH /api/v1/manager/report/:id': {
    bodies: () => [
      { status: 'investigating', note_for_reporter: '조사를 시작합니다.', internal_note: '' },
      { status: 'received' },
      { status: 'action_taken', internal_note: '메모' },
      {
        status: 'action_taken',
        outcome: { finding: 'substantiated', actions: ['warning', 'training'], summary: '경고 조치' },
      },
      { status: 'investigating', internal_note: '추가 증거가 들어와 다시 조사합니다.' },
    ],
  },
  'GET /api/v1/manager/report/:id/messages': {},
  'POST /api/v1/manager/report/:id/messages': {
    bodies: (f) => [
      { body: '면담 일정을 알려드립니다.' },
      { body: '안내문입니다.', files: f.ids.file.slice(-1) },
    ],
  },
  'POST /api/v1/manager/report/:id/measures': {
    bodies: () => [{ measure: 'separation', detail: '좌석 분리' }, { measure: 'other' }],
  },
  'PATCH /api/v1/manager/report/:id/measures/:measureId': {
    bodies: () => [
      { decision: 'granted', reporter_consent: true },
      { decision: 'refused', reason: '업무상 불가' },
      { reporter_consent: null },
    ],
  },
  'GET /api/v1/manager/report/:id/events': { eventStream: true },
  'POST /api/v1/manager/report/:id/invitations': {
    bodies: () => [
      {
        invitations: [{ kind: 'reference', name: '참고인', email: 'ref@fuzz.example' }],
        share_evidence: false,
        expires_in_days: 14,
      },
      { invitations: [{ kind: 'reference', witness_index: 0 }] },
    ],
  },
  'POST /api/v1/manager/report/:id/invitations/:invitationId/resend': { bodies: () => [{}] },
  'POST /api/v1/manager/report/:id/invitations/:invitationId/revoke': { bodies: () => [{}] },
  'GET /api/v1/manager/report/:id/audit': {
    query: {
      action: ['report.read', 'report.status', 'case.assign', 'x'],
      user_id: ['00000000-0000-4000-8000-000000000000', 'nobody'],
    },
  },
  'PUT /api/v1/manager/report/:id/assignees': {
    bodies: (f) => [{ user_ids: [f.actors.manager.userId] }, { user_ids: [] }],
  },
  // Never the manager themselves (refused): the fuzzer must not lock its own manager out of the case.
  'POST /api/v1/manager/report/:id/exclusions': { bodies: (f) => [{ user_id: f.actors.reporter.userId }] },
  'GET /api/v1/manager/stats/reports': {
    query: { date_from: ['2025-01', '2026-11', '2026-13'], date_to: ['2026-11', '2024-12', 'x'] },
  },
  'GET /api/v1/company/settings': {},
  'PATCH /api/v1/company/settings': {
    bodies: () => [
      { ack_deadline_days: 7, feedback_deadline_days: 90, retention_days: 1095 },
      { notice_contact: '인사팀 02-000-0000', intake_help_text: '도움말' },
      { ack_deadline_days: 30, feedback_deadline_days: 7 },
    ],
  },
  'POST /api/v1/company/join-code/rotate': { bodies: () => [{}] },
  'POST /api/v1/company/intake-code/rotate': { bodies: () => [{}] },
  'GET /api/v1/company/people': {},
  'PATCH /api/v1/company/people/:id': { bodies: () => [{ role: 'member' }, { role: 'investigator' }] },
  'GET /api/v1/company/invitations': {},
  'POST /api/v1/company/invitations': {
    bodies: () => [
      { email: 'handler@fuzz.example', role: 'manager' },
      { email: 'outside@elsewhere.example', role: 'investigator' },
    ],
  },
  'DELETE /api/v1/company/pending-invitations/:id': {},
  'GET /api/v1/company/domains': {},
  'POST /api/v1/company/domains': {
    bodies: () => [
      { domain: 'new.fuzz.example', email: 'it@new.fuzz.example' },
      { domain: 'fuzz.example', email: 'it@fuzz.example' },
    ],
  },
  'DELETE /api/v1/company/domains/:domain': {},
  'GET /api/v1/company/domains/verify/:token': {},
  'POST /api/v1/company/domains/verify/:token': { bodies: () => [{}] },
  'GET /api/v1/company/audit': {
    query: {
      action: ['company.settings', 'user.role'],
      page: ['1', '2'],
      user_id: ['00000000-0000-4000-8000-000000000000'],
    },
  },
  'POST /api/v1/invitation/acknowledge': { bodies: () => [{}] },
  'GET /api/v1/invitation/:token': {},
  'GET /api/v1/company/invitations/:token': {},
  'POST /api/v1/company/invitations/:token/accept': {
    expensive: true,
    bodies: () => [{ name: '초대받은 사람', password: STRONG_PASSWORD }, {}],
  },
  'POST /api/v1/operator/companies': {
    bodies: () => [
      { name: '퍼즈 새 회사', domains: ['fuzz-new.example'], admin_email: 'hr@fuzz-new.example' },
      { name: '도메인 없는 회사', domains: [], admin_email: 'hr@elsewhere.example' },
    ],
  },
  'GET /api/v1/operator/companies': {},
  'POST /api/v1/operator/companies/:id/suspend': { bodies: () => [{}] },
  'POST /api/v1/operator/companies/:id/resume': { bodies: () => [{}] },
  'GET /api/v1/operator/health': {},
  'GET /api/v1/operator/audit': {
    query: {
      action: ['company.create', 'company.suspend', 'company.resume', 'report.read'],
      company_id: ['00000000-0000-4000-8000-000000000000', 'nobody'],
      page: ['1', '2', '0'],
    },
  },
  'GET /api/v1/intake/:code': {},
  'POST /api/v1/intake': {
    bodies: (f) => [
      {},
      { code: f.ids.intakeCode[0] },
      { code: f.ids.intakeCode[0], captcha: 'bm90IGEgY2FwdGNoYQ==' },
    ],
  },
  // The captcha is never solved: a fuzzed receipt is refused before any argon2 hash is computed.
  'POST /api/v1/receipt': {
    bodies: () => [{ receipt: '1234 5678 9012 3456', captcha: 'bm90IGEgY2FwdGNoYQ==' }, { receipt: '1' }],
  },
  'GET /api/v1/receipt': {},
  'DELETE /api/v1/receipt': {},
  'GET /api/v1/user/pending-receipts': {},
  'DELETE /api/v1/user/pending-receipts': {},
  'POST /api/v1/user/join': { bodies: () => [{ join_code: 'NOT-A-JOIN-CODE' }, { join_code: '' }] },
};

export interface FuzzTarget {
  key: string;
  method: string;
  url: string;
  spec: RouteSpec;
}

/** The app's routes paired with their specs; throws naming every route without one (and every stale spec). */
export function fuzzTargets(fixture: FuzzFixture): FuzzTarget[] {
  const routes = registeredRoutes(fixture.ctx.app);
  const keys = routes.map((route) => `${route.method} ${route.url}`);
  const missing = keys.filter((key) => !(key in ROUTE_SPECS));
  const stale = Object.keys(ROUTE_SPECS).filter((key) => !keys.includes(key));
  if (missing.length || stale.length) {
    throw new Error(
      `fuzz specs out of date — routes without a generator: [${missing.join(', ')}]; ` +
        `specs without a route: [${stale.join(', ')}]`,
    );
  }
  return routes.map((route, index) => ({ ...route, key: keys[index]!, spec: ROUTE_SPECS[keys[index]!]! }));
}

// ---------------------------------------------------------------------------------------------------------
// Generated requests

interface FuzzBody {
  payload?: string | Buffer;
  contentType?: string;
  label: string;
}

interface FuzzCase {
  actor: Actor;
  clean: boolean;
  params: Record<string, string>;
  trailingSlash: boolean;
  query: string;
  headerOps: HeaderOp[];
  body: FuzzBody;
  ip: string;
}

type HeaderOp =
  | { kind: 'set'; name: string; value: string }
  | { kind: 'duplicate'; name: string; value: string }
  | { kind: 'drop'; name: string };

function paramArbitrary(name: string, target: FuzzTarget, fixture: FuzzFixture): fc.Arbitrary<string> {
  const pool =
    name === 'token'
      ? fixture.ids.invitationToken
      : name === 'code'
        ? fixture.ids.intakeCode
        : name === 'measureId'
          ? fixture.ids.measure
          : name === 'invitationId'
            ? fixture.ids.invitation
            : name === '*'
              ? ['favicon-32x32.png', 'static/swagger-ui.css', 'json', 'static/index.html']
              : target.url.startsWith('/api/v1/file')
                ? fixture.ids.file
                : target.url.startsWith('/api/v1/operator')
                  ? fixture.ids.company
                  : fixture.ids.report;
  return fc.oneof(
    { arbitrary: fc.constantFrom(...pool), weight: 4 },
    { arbitrary: fc.constantFrom(...pool).map((id) => id.toUpperCase()), weight: 1 },
    { arbitrary: fc.uuid().map(String), weight: 1 },
    { arbitrary: weirdString.map(percentEncode), weight: 4 },
    { arbitrary: fc.constantFrom(...BAD_URL_PARTS), weight: 2 },
    { arbitrary: fc.constant('x'.repeat(2000)), weight: 1 },
  );
}

function queryArbitrary(spec: RouteSpec): fc.Arbitrary<string> {
  const known = Object.entries(spec.query ?? { page: ['1'] });
  const knownKey = fc.constantFrom(...known.map(([key]) => key));
  const pair = (key: fc.Arbitrary<string>, value: fc.Arbitrary<string>) =>
    fc.tuple(key, value).map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`);
  return fc.oneof(
    { arbitrary: fc.constant(''), weight: 3 },
    {
      arbitrary: fc
        .array(
          fc
            .constantFrom(...known)
            .chain(([key, values]) => pair(fc.constant(key), fc.constantFrom(...values))),
          { maxLength: 4 },
        )
        .map((parts) => parts.join('&')),
      weight: 3,
    },
    { arbitrary: fc.array(pair(knownKey, weirdString), { maxLength: 4 }).map((p) => p.join('&')), weight: 3 },
    {
      arbitrary: fc
        .array(
          pair(
            fc.oneof(
              fc.constantFrom('__proto__', 'constructor', 'prototype', '__proto__[x]', 'a[b][c]', 'page[]'),
              weirdString,
            ),
            weirdString,
          ),
          { maxLength: 5 },
        )
        .map((parts) => parts.join('&')),
      weight: 2,
    },
    {
      arbitrary: fc
        .array(fc.constantFrom(...BAD_URL_PARTS, '&', '=', '==', '&&', '?', '#', '+', ';'), { maxLength: 6 })
        .chain((parts) => knownKey.map((key) => `${key}=${parts.join('')}`)),
      weight: 2,
    },
    { arbitrary: knownKey.map((key) => `${key}=1&${key}=2&${key}=`), weight: 1 },
  );
}

const HEADER_NAMES = [
  'content-type',
  'cookie',
  'origin',
  'referer',
  'host',
  'accept',
  'accept-encoding',
  'accept-language',
  'range',
  'if-none-match',
  'if-modified-since',
  'x-invitation-token',
  'idempotency-key',
  'x-csrftoken',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'authorization',
  'user-agent',
  'content-encoding',
  'content-length',
];

const headerValue = fc.oneof(
  { arbitrary: weirdString, weight: 4 },
  {
    arbitrary: fc.constantFrom(
      ...ODD_CONTENT_TYPES,
      'https://evil.example',
      'null',
      'http://localhost',
      'bytes=0-1',
      'bytes=-1',
      'bytes=999999999-',
      'bytes=0-0,1-1,2-2',
      'gzip, br, deflate',
      'gzip',
      'sessionid=; csrftoken=',
      'sessionid=x; sessionid=y',
      `sessionid=${'s'.repeat(65)}`,
      '0',
      '-1',
      '99999999999999999999',
      'x'.repeat(8000),
      'Basic Zm9vOmJhcg==',
      '*',
    ),
    weight: 4,
  },
);

const headerOp: fc.Arbitrary<HeaderOp> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('set' as const),
      name: fc.oneof(
        { arbitrary: fc.constantFrom(...HEADER_NAMES), weight: 5 },
        { arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), weight: 1 },
      ),
      value: headerValue,
    }),
    weight: 5,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('duplicate' as const),
      name: fc.constantFrom(...HEADER_NAMES),
      value: headerValue,
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('drop' as const),
      name: fc.constantFrom('cookie', 'x-csrftoken', 'x-invitation-token', 'content-type'),
    }),
    weight: 1,
  },
);

const MULTIPART_CONTENT = [
  Buffer.from('증거 메모 텍스트'),
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
  Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x02, 0xff, 0xd9]),
  Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
  Buffer.from('<html><script>alert(1)</script></html>'),
  Buffer.from('MZ\x90\x00\x03', 'latin1'),
  Buffer.alloc(0),
  Buffer.from('\u0000\u0000\u0000'),
];

function multipartBody(boundary: string, parts: string[], closing = true): Buffer {
  return Buffer.from(
    `${parts.map((part) => `--${boundary}\r\n${part}\r\n`).join('')}${closing ? `--${boundary}--\r\n` : ''}`,
    'latin1',
  );
}

const badMultipart: fc.Arbitrary<FuzzBody> = fc
  .tuple(
    fc.constantFrom(
      'no-boundary',
      'wrong-boundary',
      'truncated',
      'no-crlf',
      'two-files',
      'field-only',
      'no-name',
      'many-parts',
      'huge-header',
      'empty',
      'garbage',
    ),
    weirdString,
  )
  .map(([kind, text]): FuzzBody => {
    const b = 'fuzzboundary';
    const file = (name: string) =>
      `Content-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n내용`;
    const safe = asHeaderValue(text).replace(/["\r\n]/g, '');
    const type = `multipart/form-data; boundary=${b}`;
    switch (kind) {
      case 'no-boundary':
        return {
          payload: multipartBody(b, [file('a.txt')]),
          contentType: 'multipart/form-data',
          label: kind,
        };
      case 'wrong-boundary':
        return { payload: multipartBody('other', [file('a.txt')]), contentType: type, label: kind };
      case 'truncated':
        return {
          payload: multipartBody(b, [file('a.txt')], false).subarray(0, 60),
          contentType: type,
          label: kind,
        };
      case 'no-crlf':
        return { payload: Buffer.from(`--${b}${file('a.txt')}--${b}--`), contentType: type, label: kind };
      case 'two-files':
        return { payload: multipartBody(b, [file('a.txt'), file('b.txt')]), contentType: type, label: kind };
      case 'field-only':
        return {
          payload: multipartBody(b, [`Content-Disposition: form-data; name="note"\r\n\r\n${safe}`]),
          contentType: type,
          label: kind,
        };
      case 'no-name':
        return {
          payload: multipartBody(b, ['Content-Disposition: form-data\r\n\r\nx', 'X-Other: 1\r\n\r\ny']),
          contentType: type,
          label: kind,
        };
      case 'many-parts':
        return {
          payload: multipartBody(
            b,
            Array.from({ length: 8 }, (_, i) => `Content-Disposition: form-data; name="f${i}"\r\n\r\n${i}`),
          ),
          contentType: type,
          label: kind,
        };
      case 'huge-header':
        return {
          payload: multipartBody(b, [
            `Content-Disposition: form-data; name="file"; filename="${'n'.repeat(70_000)}"\r\n\r\nx`,
          ]),
          contentType: type,
          label: kind,
        };
      case 'empty':
        return { payload: Buffer.alloc(0), contentType: type, label: kind };
      default:
        return { payload: Buffer.from(text), contentType: type, label: kind };
    }
  });

const goodMultipart: fc.Arbitrary<FuzzBody> = fc
  .tuple(
    fc.oneof(
      fc.constantFrom('증거.txt', 'photo.jpg', 'scan.pdf', '../../../etc/passwd', 'a\u0000.txt', '.htaccess'),
      weirdString,
    ),
    fc.oneof(fc.constantFrom(...MULTIPART_CONTENT), fc.uint8Array({ maxLength: 256 }).map(Buffer.from)),
    fc.constantFrom('application/octet-stream', 'text/plain', 'image/png', 'application/x-msdownload', ''),
  )
  .map(([name, content, type]) => {
    const { payload, headers } = multipartFile(asHeaderValue(name).replace(/["\r\n]/g, '_'), content, type);
    return { payload, contentType: headers['content-type'], label: 'multipart' };
  });

function bodyArbitrary(spec: RouteSpec, fixture: FuzzFixture, clean: boolean): fc.Arbitrary<FuzzBody> {
  const templates = spec.bodies?.(fixture) ?? [{}];
  const template = fc.constantFrom(...templates);
  const json = (label: string) => (text: string | Buffer) => ({
    payload: text,
    contentType: 'application/json',
    label,
  });
  if (clean) {
    if (spec.multipart) return goodMultipart;
    if (!spec.bodies) return fc.constant({ label: 'none' });
    return template.map((value) => json('valid')(toJsonText(value)));
  }
  const big = fc.constantFrom(BODY_LIMIT + 1, BODY_LIMIT);
  const shapes: fc.WeightedArbitrary<FuzzBody>[] = [
    { arbitrary: fc.constant({ label: 'none' }), weight: spec.bodies || spec.multipart ? 1 : 8 },
    {
      arbitrary: fc
        .tuple(template, fc.array(mutation, { minLength: 1, maxLength: 3 }))
        .map(([value, mutations]) => json('mutated')(toJsonText(mutate(value, mutations)))),
      weight: 8,
    },
    { arbitrary: weirdJson.map((value) => json('random-json')(toJsonText(value))), weight: 3 },
    {
      arbitrary: fc
        .tuple(template, protoInjection)
        .map(([value, injection]) => json('proto-keys')(withInjectedKeys(toJsonText(value), injection))),
      weight: 2,
    },
    { arbitrary: badJsonText.map(json('bad-json')), weight: 2 },
    { arbitrary: badUtf8.map(json('bad-utf8')), weight: 1 },
    {
      arbitrary: fc
        .tuple(template, big)
        .map(([value, size]) => json(`padded-${size}`)(paddedJson(size, toJsonText(value)))),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(template, fc.constantFrom(...ODD_CONTENT_TYPES))
        .map(([value, contentType]) => ({ payload: toJsonText(value), contentType, label: 'odd-type' })),
      weight: 2,
    },
    {
      arbitrary: fc.tuple(template, fc.constantFrom(...ODD_CONTENT_TYPES)).map(([value, contentType]) => ({
        payload: new URLSearchParams(
          Object.entries(value as object).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
        ).toString(),
        contentType,
        label: 'form-body',
      })),
      weight: 1,
    },
    { arbitrary: badMultipart, weight: spec.multipart ? 5 : 1 },
  ];
  if (spec.multipart) {
    shapes.push({ arbitrary: goodMultipart, weight: 6 });
    shapes.push({
      arbitrary: fc.constant(0).map(() => {
        const { payload, headers } = multipartFile(
          'big.txt',
          Buffer.alloc(BODY_LIMIT + 1, 0x61),
          'text/plain',
        );
        return { payload, contentType: headers['content-type'], label: 'multipart-1MiB+1' };
      }),
      weight: 1,
    });
  }
  return fc.oneof(...shapes);
}

function caseArbitrary(target: FuzzTarget, fixture: FuzzFixture): fc.Arbitrary<FuzzCase> {
  const names = [...target.url.matchAll(/:(\w+)|\*/g)].map((match) => match[1] ?? '*');
  const params = fc.record(
    Object.fromEntries(names.map((name) => [name, paramArbitrary(name, target, fixture)])),
  ) as fc.Arbitrary<Record<string, string>>;
  // A few fixed addresses, plus random ones: the per-IP login limit is met now and then, never always.
  const ip = fc.oneof(
    fc.constantFrom('10.9.0.1', '10.9.0.2', '::1', '::ffff:10.9.0.3'),
    fc.tuple(fc.nat(255), fc.nat(255)).map(([a, b]) => `10.99.${a}.${b}`),
  );
  // A fifth of the cases are well-formed throughout, so they pass validation and reach the domain code.
  return fc.boolean().chain((fuzzy) =>
    fc.integer({ min: 0, max: 4 }).chain((roll) => {
      const clean = roll === 0 && !(target.spec.expensive && fuzzy);
      return fc.record({
        actor: fc.constantFrom(...ACTORS),
        clean: fc.constant(clean),
        params: clean
          ? (fc.record(
              Object.fromEntries(
                names.map((name) => [
                  name,
                  paramArbitrary(name, target, fixture).filter((v) => !/%|x{2000}/.test(v)),
                ]),
              ),
            ) as fc.Arbitrary<Record<string, string>>)
          : params,
        trailingSlash: fc.boolean(),
        query: clean ? fc.constant('') : queryArbitrary(target.spec),
        headerOps: clean ? fc.constant([]) : fc.array(headerOp, { maxLength: 4 }),
        body: bodyArbitrary(target.spec, fixture, clean),
        ip,
      });
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Sending and judging

function buildRequest(target: FuzzTarget, fixture: FuzzFixture, fuzzCase: FuzzCase, sessionId?: string) {
  const actor = fixture.actors[fuzzCase.actor];
  let path = target.url.replace(
    /:(\w+)|\*/g,
    (_match, name: string | undefined) => fuzzCase.params[name ?? '*']!,
  );
  if (fuzzCase.trailingSlash && !path.endsWith('/')) path += '/';
  const cookies = { ...actor.cookies, ...(sessionId ? { [SESSION_COOKIE]: sessionId } : {}) };
  const headers: Record<string, string> = {
    ...actor.headers,
    cookie: Object.entries(cookies)
      .map(([name, value]) => `${name}=${value}`)
      .join('; '),
  };
  if (fuzzCase.body.contentType !== undefined) headers['content-type'] = fuzzCase.body.contentType;
  for (const op of fuzzCase.headerOps) {
    if (op.kind === 'drop') delete headers[op.name];
    else {
      const value = asHeaderValue(op.value);
      // Node joins a repeated header with ", " (cookies with "; ") and keeps the first of single-valued ones.
      if (op.kind === 'duplicate' && headers[op.name] !== undefined) {
        if (['content-type', 'host', 'authorization', 'user-agent', 'referer'].includes(op.name)) continue;
        headers[op.name] = `${headers[op.name]}${op.name === 'cookie' ? '; ' : ', '}${value}`;
      } else headers[op.name] = value;
    }
  }
  // light-my-request sets the length itself; a fuzzed one that does not match is what a real client sends too.
  const options: InjectOptions = {
    method: target.method as InjectOptions['method'],
    url: `${path}${fuzzCase.query ? `?${fuzzCase.query}` : ''}`,
    headers,
    remoteAddress: fuzzCase.ip,
    ...(fuzzCase.body.payload !== undefined ? { payload: fuzzCase.body.payload } : {}),
  };
  return options;
}

/** Signs of an internal error reaching the client: stack frames, source paths, raw error names. */
const STACK_PATTERNS = [
  /\n\s+at /,
  / {4}at /,
  /(?:\/work\/|\/home\/|\/root\/|\/usr\/|node_modules|\/apps\/api\/)/,
  /\b[\w.-]+\.(?:ts|js|mjs|cjs):\d+/,
  /\b(?:Type|Range|Reference|Syntax|)Error: /,
  /"stack"\s*:/,
];

export function stackTraceIn(body: string): string | undefined {
  return STACK_PATTERNS.find((pattern) => pattern.test(body))?.source;
}

export interface Finding {
  route: string;
  kind: '5xx' | 'stack-trace' | 'hang' | 'crash';
  status?: number;
  detail: string;
  request: string;
}

export interface RouteStats {
  route: string;
  runs: number;
  clean: number;
  statuses: Record<number, number>;
  serverErrors: number;
  stackTraces: number;
  hangs: number;
  crashes: number;
  ms: number;
}

const HANG_MS = 20_000;

function describeRequest(options: InjectOptions, label: string): string {
  const payload = options.payload as string | Buffer | undefined;
  const shown =
    payload === undefined
      ? ''
      : ` body(${label}, ${Buffer.byteLength(payload as string)} B)=${JSON.stringify(
          (Buffer.isBuffer(payload) ? payload.toString('latin1') : payload).slice(0, 300),
        )}`;
  return `${options.method} ${String(options.url).slice(0, 300)} headers=${JSON.stringify(options.headers).slice(0, 600)}${shown}`;
}

async function send(
  options: InjectOptions,
  fixture: FuzzFixture,
  eventStream: boolean,
): Promise<LightMyRequestResponse> {
  if (!eventStream) return fixture.ctx.app.inject(options);
  // An event stream never ends by itself: take the first event, then hang up like a browser tab closing.
  const response = await fixture.ctx.app.inject({ ...options, payloadAsStream: true });
  const stream = response.stream();
  let body = '';
  if (String(response.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    const [first] = (await stream.take(1).toArray()) as Buffer[];
    body = first?.toString() ?? '';
    (response.raw.res as unknown as { req: NodeJS.EventEmitter }).req.emit('close');
  } else {
    for await (const chunk of stream) body += chunk.toString();
  }
  return { ...response, body, payload: body } as LightMyRequestResponse;
}

/** Runs `numRuns` generated requests against one route and records every status and finding. */
export async function fuzzRoute(
  fixture: FuzzFixture,
  target: FuzzTarget,
  options: { numRuns: number; seed: number; findings: Finding[] },
): Promise<RouteStats> {
  const stats: RouteStats = {
    route: target.key,
    runs: 0,
    clean: 0,
    statuses: {},
    serverErrors: 0,
    stackTraces: 0,
    hangs: 0,
    crashes: 0,
    ms: 0,
  };
  const started = performance.now();
  const isLogout = target.key === 'DELETE /api/v1/token';
  const property = fc.asyncProperty(caseArbitrary(target, fixture), async (fuzzCase) => {
    stats.runs++;
    if (fuzzCase.clean) stats.clean++;
    const actor = fixture.actors[fuzzCase.actor];
    // Logging out ends the session server-side: each logout case gets a session of its own.
    const sessionId =
      isLogout && actor.userId
        ? (await createSession(fixture.ctx.database, actor.userId, fixture.ctx.config)).id
        : undefined;
    const request = buildRequest(target, fixture, fuzzCase, sessionId);
    const record = (kind: Finding['kind'], detail: string, status?: number) =>
      options.findings.push({
        route: target.key,
        kind,
        status,
        detail: detail.slice(0, 500),
        request: describeRequest(request, fuzzCase.body.label),
      });
    let timer: NodeJS.Timeout | undefined;
    try {
      const response = await Promise.race([
        send(request, fixture, Boolean(target.spec.eventStream)),
        new Promise<'hang'>((resolve) => {
          timer = setTimeout(() => resolve('hang'), HANG_MS);
        }),
      ]);
      if (response === 'hang') {
        stats.hangs++;
        record('hang', `no answer within ${HANG_MS} ms`);
        return;
      }
      stats.statuses[response.statusCode] = (stats.statuses[response.statusCode] ?? 0) + 1;
      if (response.statusCode >= 500) {
        stats.serverErrors++;
        record('5xx', response.body, response.statusCode);
      }
      // Served files (the API docs' assets, downloads, CSV) are content, not error reports.
      const contentType = String(response.headers['content-type'] ?? '');
      const isContent = response.statusCode < 400 && !contentType.startsWith('application/json');
      const pattern = isContent ? undefined : stackTraceIn(response.body);
      if (pattern) {
        stats.stackTraces++;
        record('stack-trace', `${pattern} in ${response.body}`, response.statusCode);
      }
    } catch (error) {
      stats.crashes++;
      record('crash', error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    } finally {
      clearTimeout(timer);
    }
  });
  await fc.assert(property, { seed: options.seed, numRuns: options.numRuns });
  stats.ms = Math.round(performance.now() - started);
  return stats;
}

/** A route's own seed, derived from the run's, so routes can be fuzzed alone and still reproduce. */
export function routeSeed(seed: number, route: string): number {
  let hash = seed | 0;
  for (const char of route) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

export interface FuzzSummary {
  seed: number;
  runsPerRoute: number;
  routes: RouteStats[];
  findings: Finding[];
  ms: number;
}

/** Fuzzes every route of a fresh app; uncaught errors anywhere in the process count as crashes. */
export async function runFuzz(options: {
  numRuns: number;
  seed?: number;
  only?: string;
  /** Exactly this route (its `METHOD /pattern` key). */
  route?: string;
  onRoute?: (stats: RouteStats) => void;
}): Promise<FuzzSummary> {
  const seed = options.seed ?? FUZZ_SEED;
  const started = performance.now();
  const findings: Finding[] = [];
  const onUncaught = (error: unknown) =>
    findings.push({
      route: '(process)',
      kind: 'crash',
      detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      request: 'unknown',
    });
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  const fixture = await createFuzzFixture();
  const routes: RouteStats[] = [];
  try {
    for (const target of fuzzTargets(fixture)) {
      if (options.only && !target.key.includes(options.only)) continue;
      if (options.route && target.key !== options.route) continue;
      const stats = await fuzzRoute(fixture, target, {
        numRuns: options.numRuns,
        seed: routeSeed(seed, target.key),
        findings,
      });
      routes.push(stats);
      options.onRoute?.(stats);
    }
  } finally {
    await fixture.ctx.close();
    fs.rmSync(fixture.ctx.config.DATA_DIR, { recursive: true, force: true });
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
  }
  return {
    seed,
    runsPerRoute: options.numRuns,
    routes,
    findings,
    ms: Math.round(performance.now() - started),
  };
}

export function formatRouteLine(stats: RouteStats): string {
  const statuses = Object.entries(stats.statuses)
    .map(([status, count]) => `${status}:${count}`)
    .join(' ');
  return `${stats.route.padEnd(68)} runs ${String(stats.runs).padStart(6)} (valid-shaped ${stats.clean})  ≥500 ${stats.serverErrors}  stack ${stats.stackTraces}  hang ${stats.hangs}  crash ${stats.crashes}  ${(stats.ms / 1000).toFixed(1)} s  [${statuses}]`;
}

export function formatSummary(summary: FuzzSummary): string {
  const total = (pick: (stats: RouteStats) => number) => summary.routes.reduce((sum, s) => sum + pick(s), 0);
  const statuses: Record<string, number> = {};
  for (const stats of summary.routes)
    for (const [status, count] of Object.entries(stats.statuses))
      statuses[status] = (statuses[status] ?? 0) + count;
  const lines = [
    `seed ${summary.seed}, ${summary.runsPerRoute} runs per route, ${summary.routes.length} routes`,
    `requests: ${total((s) => s.runs)} (valid-shaped ${total((s) => s.clean)})`,
    `status distribution: ${Object.entries(statuses)
      .map(([status, count]) => `${status}:${count}`)
      .join(' ')}`,
    `responses ≥ 500: ${total((s) => s.serverErrors)}`,
    `stack traces in bodies: ${total((s) => s.stackTraces)}`,
    `hangs: ${total((s) => s.hangs)}, crashes: ${total((s) => s.crashes)}, process errors: ${
      summary.findings.filter((f) => f.route === '(process)').length
    }`,
    `duration: ${(summary.ms / 1000).toFixed(1)} s`,
  ];
  return lines.join('\n');
}
