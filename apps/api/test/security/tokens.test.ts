import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../../src/lib/tokens.ts';
import { createCompany, createManager, invitationTokenFor, inviteeClient, reportBody } from '../fixtures.ts';
import {
  createTestApp,
  dumpDatabase,
  latestMail,
  registerAndLogin,
  STRONG_PASSWORD,
  TestClient,
  type TestContext,
  tokenFromMail,
} from '../helpers.ts';

const HOUR = 3600_000;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '토큰 주식회사', 'token.example');
});
afterAll(() => ctx.close());
afterEach(() => {
  vi.useRealTimers();
});

/**
 * The token's own table holds its SHA-256 only. The one other place the raw token may be is the queued mail
 * that carries the link to its recipient — until the mail worker has delivered it.
 */
async function expectStoredHashedOnly(token: string, recipient: string) {
  const dump = (await dumpDatabase(ctx.database)).split('\n');
  expect(
    dump.some((row) => row.includes(sha256Hex(token))),
    'hash at rest',
  ).toBe(true);
  const holders = dump.filter((row) => row.includes(token));
  expect(holders.length).toBeLessThanOrEqual(1);
  for (const row of holders) expect(JSON.parse(row)).toMatchObject({ to: recipient, status: 'pending' });
}

async function confirmToken(client: TestClient, email: string) {
  await client.post('/api/v1/user/', { email, password: STRONG_PASSWORD, name: '토큰' });
  return tokenFromMail((await latestMail(ctx.database, email))!.text, '/register/confirm');
}

async function resetToken(client: TestClient, email: string) {
  await client.post('/api/v1/user/password/send-reset-email', { email });
  return tokenFromMail((await latestMail(ctx.database, email))!.text, '/reset-password');
}

describe('security: one-time tokens', () => {
  it('keeps confirmation, reset and invitation tokens hashed at rest, single-use and expiring', async () => {
    const client = new TestClient(ctx.app);

    // E-mail confirmation: 24 hours, once.
    const confirm = await confirmToken(client, 'confirm-once@token.example');
    await expectStoredHashedOnly(confirm, 'confirm-once@token.example');
    expect((await client.post('/api/v1/user/email/confirm-email', { token: confirm })).statusCode).toBe(200);
    const confirmAgain = await client.post('/api/v1/user/email/confirm-email', { token: confirm });
    expect(confirmAgain.statusCode).toBe(400);
    expect(confirmAgain.json().code).toBe('INVALID_TOKEN');
    const lateConfirm = await confirmToken(client, 'confirm-late@token.example');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 24 * HOUR + 1000 });
    expect((await client.post('/api/v1/user/email/confirm-email', { token: lateConfirm })).json().code).toBe(
      'INVALID_TOKEN',
    );
    vi.useRealTimers();

    // Password reset: 1 hour, once.
    const reset = await resetToken(client, 'confirm-once@token.example');
    await expectStoredHashedOnly(reset, 'confirm-once@token.example');
    const first = await client.post('/api/v1/user/email/reset-password', {
      token: reset,
      password: '새-비밀번호-첫번째-2026',
    });
    expect(first.statusCode).toBe(200);
    const second = await client.post('/api/v1/user/email/reset-password', {
      token: reset,
      password: '새-비밀번호-두번째-2026',
    });
    expect(second.json().code).toBe('INVALID_TOKEN');
    const lateReset = await resetToken(client, 'confirm-once@token.example');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + HOUR + 1000 });
    const expired = await client.post('/api/v1/user/email/reset-password', {
      token: lateReset,
      password: '새-비밀번호-세번째-2026',
    });
    expect(expired.json().code).toBe('INVALID_TOKEN');
    vi.useRealTimers();

    // Invitation link: one statement per link, 14 days by default.
    const reporter = await registerAndLogin(ctx, 'reporter@token.example');
    const manager = await createManager(ctx, 'manager@token.example');
    const { id: reportId } = (
      await reporter.post(
        '/api/v1/report/',
        reportBody('formal', { perpetrator_email: 'accused@token.example' }),
      )
    ).json();
    const invited = await manager.post(`/api/v1/manager/report/${reportId}/invitations`, {
      invitations: [{ kind: 'defendant' }],
    });
    expect(invited.statusCode).toBe(201);
    const invitation = await invitationTokenFor(ctx, 'accused@token.example', 'defendant');
    await expectStoredHashedOnly(invitation, 'accused@token.example');
    const invitee = inviteeClient(ctx, invitation);
    expect((await invitee.post('/api/v1/invitation/acknowledge')).statusCode).toBe(200);
    const statement = (opinion: string) => ({
      report_type: 'defendant',
      reporter_name: '박행위',
      defendant_truth: 'deny',
      defendant_opinion: opinion,
    });
    expect((await invitee.post('/api/v1/report/', statement('사실이 아닙니다.'))).statusCode).toBe(201);
    const another = await invitee.post('/api/v1/report/', statement('다른 진술로 바꾸겠습니다.'));
    expect(another.statusCode).toBe(409);
    expect(another.json().code).toBe('ALREADY_SUBMITTED');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 14 * 24 * HOUR + 1000 });
    const late = await ctx.app.inject({ method: 'GET', url: `/api/v1/invitation/${invitation}` });
    expect(late.statusCode).toBe(410);
    expect(late.json().code).toBe('INVITATION_EXPIRED');
    expect((await invitee.post('/api/v1/invitation/acknowledge')).statusCode).toBe(410);
  });
});
