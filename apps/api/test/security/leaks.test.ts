import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailWorker } from '../../src/mail/worker.ts';
import {
  createCompany,
  createManager,
  invitationTokenFor,
  inviteeClient,
  reportBody,
  upload,
} from '../fixtures.ts';
import {
  createTestApp,
  dumpDatabase,
  LogCapture,
  latestMail,
  listFilesRecursive,
  STRONG_PASSWORD,
  solveCaptcha,
  TestClient,
  type TestContext,
  tokenFromMail,
} from '../helpers.ts';

/** From the documentation range (RFC 5737): found anywhere, it can only have come from this test. */
const REPORTER_IP = '203.0.113.77';
const EMAIL = 'sentinel-reporter@leak.example';
const NEW_PASSWORD = 'NEW-PASSWORD-SENTINEL-7a1f';
const REPORT_TEXT = 'REPORT-TEXT-SENTINEL 회의실에서 고성과 모욕이 있었습니다';
const FAILED_REPORT_TEXT = 'FAILED-REPORT-SENTINEL 실패한 신고 내용';
const STATEMENT_TEXT = 'STATEMENT-SENTINEL 진술 내용';

const logs = new LogCapture();
const sentinels: Record<string, string> = {};
let ctx: TestContext;

/**
 * One whole journey at LOG_LEVEL=trace, the reporter always from REPORTER_IP: registration, confirmation,
 * login, evidence upload, a report, invitations answered through their link, a password reset, a request that
 * fails in the database with the report text in its parameters, and logout.
 */
beforeAll(async () => {
  ctx = await createTestApp({ config: { LOG_LEVEL: 'trace' }, logs });
  await createCompany(ctx, '누출 주식회사', 'leak.example');
  const reporter = new TestClient(ctx.app, REPORTER_IP);
  sentinels.password = STRONG_PASSWORD;
  sentinels.newPassword = NEW_PASSWORD;
  await reporter.post('/api/v1/user/', { email: EMAIL, password: STRONG_PASSWORD, name: '누출검사' });
  sentinels.confirmToken = tokenFromMail((await latestMail(ctx.database, EMAIL))!.text, '/register/confirm');
  await reporter.post('/api/v1/user/email/confirm-email', { token: sentinels.confirmToken });
  const login = await reporter.post('/api/v1/token/', {
    email: EMAIL,
    password: STRONG_PASSWORD,
    captcha: await solveCaptcha(ctx.app),
  });
  expect(login.statusCode).toBe(200);
  sentinels.firstSession = reporter.cookies.get('sessionid')!;
  sentinels.csrf = reporter.cookies.get('csrftoken')!;
  // A wrong password, logged as a failure without the attempt.
  await new TestClient(ctx.app, REPORTER_IP).post('/api/v1/token/', {
    email: EMAIL,
    password: 'WRONG-PASSWORD-SENTINEL',
    captcha: await solveCaptcha(ctx.app),
  });
  sentinels.wrongPassword = 'WRONG-PASSWORD-SENTINEL';

  const evidence = await upload(reporter, 'FILE-NAME-SENTINEL.txt', Buffer.from('FILE-CONTENT-SENTINEL'));
  expect(evidence.statusCode).toBe(201);
  sentinels.fileContent = 'FILE-CONTENT-SENTINEL';
  const report = await reporter.post(
    '/api/v1/report/',
    reportBody('formal', {
      perpetrator_email: 'accused@leak.example',
      acts: [
        { date: '2026-10-01', location: '3층', description: REPORT_TEXT, evidences: [evidence.json().id] },
      ],
    }),
    { 'Idempotency-Key': 'IDEMPOTENCY-SENTINEL' },
  );
  expect(report.statusCode).toBe(201);
  sentinels.reportText = REPORT_TEXT;
  await reporter.post(`/api/v1/report/${report.json().id}/messages`, { body: 'MESSAGE-SENTINEL 메시지' });
  sentinels.message = 'MESSAGE-SENTINEL';

  const manager = await createManager(ctx, 'manager@leak.example');
  const invited = await manager.post(`/api/v1/manager/report/${report.json().id}/invitations`, {
    invitations: [{ kind: 'defendant' }],
  });
  expect(invited.statusCode).toBe(201);
  sentinels.invitationToken = await invitationTokenFor(ctx, 'accused@leak.example', 'defendant');
  const invitee = inviteeClient(ctx, sentinels.invitationToken);
  expect((await invitee.get(`/api/v1/invitation/${sentinels.invitationToken}`)).statusCode).toBe(200);
  await invitee.post('/api/v1/invitation/acknowledge');
  const statement = await invitee.post('/api/v1/report/', {
    report_type: 'defendant',
    reporter_name: '박행위',
    defendant_truth: 'deny',
    defendant_opinion: STATEMENT_TEXT,
  });
  expect(statement.statusCode).toBe(201);
  sentinels.statement = STATEMENT_TEXT;
  await manager.get(`/api/v1/manager/report/${report.json().id}`);

  await reporter.post('/api/v1/user/password/send-reset-email', { email: EMAIL });
  sentinels.resetToken = tokenFromMail((await latestMail(ctx.database, EMAIL))!.text, '/reset-password');
  await reporter.post('/api/v1/user/email/reset-password', {
    token: sentinels.resetToken,
    password: NEW_PASSWORD,
  });
  await reporter.post('/api/v1/token/', {
    email: EMAIL,
    password: NEW_PASSWORD,
    captcha: await solveCaptcha(ctx.app),
  });
  sentinels.secondSession = reporter.cookies.get('sessionid')!;
  // Tokens in a query string and an unknown path with a token in it.
  await reporter.get(`/api/v1/token/?token=${sentinels.resetToken}`);
  await reporter.get(`/api/v1/no-such-route/${sentinels.invitationToken}`);

  // The database refuses the insert: the error is logged, its query parameters (the report) must not be.
  await ctx.database.query(`CREATE FUNCTION security_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'forced failure'; END $$`);
  await ctx.database.query(
    'CREATE TRIGGER security_test_fail BEFORE INSERT ON reports FOR EACH ROW EXECUTE FUNCTION security_test_fail()',
  );
  const failed = await reporter.post(
    '/api/v1/report/',
    reportBody('brief', {
      perpetrator_name: 'ACCUSED-NAME-SENTINEL',
      acts: [{ date: '2026-10-02', location: '4층', description: FAILED_REPORT_TEXT, evidences: null }],
    }),
  );
  expect(failed.statusCode).toBe(500);
  sentinels.failedReport = FAILED_REPORT_TEXT;
  sentinels.failedReportAccused = 'ACCUSED-NAME-SENTINEL';
  await ctx.database.query('DROP TRIGGER security_test_fail ON reports');
  await ctx.database.query('DROP FUNCTION security_test_fail()');

  await reporter.delete('/api/v1/token/');
  // The queued mails delivered the development way, to DATA_DIR/mail, so the files written there are searched.
  const worker = startMailWorker({
    database: ctx.database,
    config: ctx.config,
    logger: ctx.app.log,
    poll: false,
  });
  await worker.runOnce();
  await worker.stop();
});
afterAll(() => ctx.close());

describe('security: nothing secret or identifying is written', () => {
  it('keeps passwords, session and one-time tokens and report text out of the logs, even at trace level', () => {
    const text = logs.text;
    // The log is really there and detailed: it saw the routes, the failure and a line per request.
    expect(text).toContain('"url":"/api/v1/report/"');
    expect(text).toContain('"url":"/api/v1/invitation/:token"');
    expect(text).toContain('"statusCode":500');
    expect(text).toContain('"sqlState":"P0001"');
    expect(logs.lines.length).toBeGreaterThan(60);
    for (const [name, sentinel] of Object.entries(sentinels)) {
      expect(sentinel.length, name).toBeGreaterThan(8);
      expect(text.includes(sentinel), `log holds ${name}`).toBe(false);
    }
    for (const fragment of ['SENTINEL', EMAIL, 'FILE-NAME-SENTINEL', 'IDEMPOTENCY-SENTINEL']) {
      expect(text.includes(fragment), `log holds ${fragment}`).toBe(false);
    }
  });

  it("never writes the reporter's IP address: not in any table, file of the data directory or log", async () => {
    const dump = await dumpDatabase(ctx.database);
    // The dump covers the journey: the report, the statement and the rate-limit rows are all in it.
    expect(dump).toContain('"case_number"');
    expect(dump).toContain('rate_limits');
    expect(dump.includes(REPORTER_IP)).toBe(false);
    const files = listFilesRecursive(ctx.config.dataDir);
    expect(files.some((file) => file.endsWith('.eml'))).toBe(true);
    for (const file of files) {
      expect(fs.readFileSync(file).includes(REPORTER_IP), file).toBe(false);
    }
    expect(logs.text.includes(REPORTER_IP)).toBe(false);
    // The address in other spellings a log or a row might use.
    for (const variant of ['203.0.113', '::ffff:203.0.113.77', 'cb00:714d']) {
      expect(dump.includes(variant) || logs.text.includes(variant), variant).toBe(false);
    }
  });
});
