import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  registerAndLogin,
  STRONG_PASSWORD,
  solveCaptcha,
  TestClient,
  type TestContext,
} from '../helpers.ts';

const TRIES = 4;

let ctx: TestContext;
beforeAll(async () => {
  // Each side asks about one address TRIES times: the per-address mail limit (F8) is lifted for the comparison.
  ctx = await createTestApp({ config: { MAILS_PER_ADDRESS_PER_HOUR: '1000' } });
  await registerAndLogin(ctx, 'exists@example.com');
  await new TestClient(ctx.app).post('/api/v1/user/', {
    email: 'pending@example.com',
    password: STRONG_PASSWORD,
    name: '대기자',
  });
});
afterAll(() => ctx.close());

/**
 * Sends the request for an existing and for an unknown account in turn, TRIES times each, each side with its own
 * client (own IP, own cookies), and collects the answers. `prepare` makes what a request needs (a captcha).
 * Equal answer TIMES are a wall-clock property a busy machine blurs: `node --import tsx
 * bench/equal-answer-times.ts` measures them in turns with enough samples; these tests keep the answers.
 */
async function compare(
  send: (
    client: TestClient,
    email: string,
    round: number,
    prepared: string,
  ) => Promise<LightMyRequestResponse>,
  existing: () => string,
  unknown: (round: number) => string,
  prepare: () => Promise<string> = async () => '',
) {
  const answers = { existing: new Set<string>(), unknown: new Set<string>() };
  for (let round = 0; round < TRIES; round += 1) {
    for (const side of ['existing', 'unknown'] as const) {
      const client = new TestClient(ctx.app);
      await client.fetchCsrf();
      const prepared = await prepare();
      const email = side === 'existing' ? existing() : unknown(round);
      const response = await send(client, email, round, prepared);
      answers[side].add(`${response.statusCode} ${response.body}`);
    }
  }
  return { answers };
}

function expectIndistinguishable(result: Awaited<ReturnType<typeof compare>>) {
  expect([...result.answers.existing]).toHaveLength(1);
  expect([...result.answers.existing]).toEqual([...result.answers.unknown]);
}

describe('security: existing and unknown e-mails look the same', () => {
  it('answers login for an existing and an unknown e-mail with the same status and body', async () => {
    const result = await compare(
      (client, email, _round, captcha) =>
        client.post('/api/v1/token/', { email, password: 'wrong-password-123', captcha }),
      () => 'exists@example.com',
      (round) => `ghost-${round}@example.com`,
      () => solveCaptcha(ctx.app),
    );
    expect([...result.answers.existing][0]).toContain('INVALID_CREDENTIALS');
    expectIndistinguishable(result);
  });

  it('answers registration of a taken and a free e-mail with the same status and body', async () => {
    const result = await compare(
      (client, email) => client.post('/api/v1/user/', { email, password: STRONG_PASSWORD, name: '가입자' }),
      () => 'exists@example.com',
      (round) => `newcomer-${round}@example.com`,
    );
    expect([...result.answers.existing][0]).toMatch(/^201 /);
    expectIndistinguishable(result);
  });

  it('answers a password reset request for an existing and an unknown e-mail with the same status and body', async () => {
    const result = await compare(
      (client, email) => client.post('/api/v1/user/password/send-reset-email', { email }),
      () => 'exists@example.com',
      (round) => `stranger-${round}@example.com`,
    );
    expect([...result.answers.existing][0]).toMatch(/^202 /);
    expectIndistinguishable(result);
  });

  it('answers a confirmation re-send for a pending and an unknown e-mail with the same status and body', async () => {
    const result = await compare(
      (client, email) => client.post('/api/v1/user/email/register', { email }),
      () => 'pending@example.com',
      (round) => `nobody-${round}@example.com`,
    );
    expect([...result.answers.existing][0]).toMatch(/^202 /);
    expectIndistinguishable(result);
  });
});
