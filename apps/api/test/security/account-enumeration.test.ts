import { performance } from 'node:perf_hooks';
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

const TRIES = 15;

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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Sends the request for an existing and for an unknown account in turn, TRIES times each, alternating so a
 * slow moment of the machine hits both sides alike. Each side gets its own client (own IP, own cookies).
 * `prepare` runs outside the timed part (captcha solving).
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
  const times = { existing: [] as number[], unknown: [] as number[] };
  const answers = { existing: new Set<string>(), unknown: new Set<string>() };
  // One untimed round each, so lazy start-up work (the dummy hash, JIT) is not counted on one side only.
  await send(new TestClient(ctx.app), existing(), -1, await prepare());
  await send(new TestClient(ctx.app), unknown(-1), -1, await prepare());
  for (let round = 0; round < TRIES; round += 1) {
    const order = round % 2 ? (['unknown', 'existing'] as const) : (['existing', 'unknown'] as const);
    for (const side of order) {
      const client = new TestClient(ctx.app);
      await client.fetchCsrf();
      const prepared = await prepare();
      const email = side === 'existing' ? existing() : unknown(round);
      const started = performance.now();
      const response = await send(client, email, round, prepared);
      times[side].push(performance.now() - started);
      answers[side].add(`${response.statusCode} ${response.body}`);
    }
  }
  return { ratio: median(times.existing) / median(times.unknown), answers, times };
}

function expectIndistinguishable(result: Awaited<ReturnType<typeof compare>>, label: string) {
  console.info(
    `${label}: median existing ${median(result.times.existing).toFixed(1)} ms, unknown ${median(result.times.unknown).toFixed(1)} ms, ratio ${result.ratio.toFixed(2)}`,
  );
  expect([...result.answers.existing]).toHaveLength(1);
  expect([...result.answers.existing]).toEqual([...result.answers.unknown]);
  expect(result.ratio, label).toBeGreaterThanOrEqual(0.67);
  expect(result.ratio, label).toBeLessThanOrEqual(1.5);
}

describe('security: existing and unknown e-mails look the same', () => {
  it('answers login for an existing and an unknown e-mail with the same status, body and time', async () => {
    const result = await compare(
      (client, email, _round, captcha) =>
        client.post('/api/v1/token/', { email, password: 'wrong-password-123', captcha }),
      () => 'exists@example.com',
      (round) => `ghost-${round}@example.com`,
      () => solveCaptcha(ctx.app),
    );
    expect([...result.answers.existing][0]).toContain('INVALID_CREDENTIALS');
    expectIndistinguishable(result, 'login');
  });

  it('answers registration of a taken and a free e-mail with the same status, body and time', async () => {
    const result = await compare(
      (client, email) => client.post('/api/v1/user/', { email, password: STRONG_PASSWORD, name: '가입자' }),
      () => 'exists@example.com',
      (round) => `newcomer-${round}@example.com`,
    );
    expect([...result.answers.existing][0]).toMatch(/^201 /);
    expectIndistinguishable(result, 'registration');
  });

  it('answers a password reset request for an existing and an unknown e-mail with the same status, body and time', async () => {
    const result = await compare(
      (client, email) => client.post('/api/v1/user/password/send-reset-email', { email }),
      () => 'exists@example.com',
      (round) => `stranger-${round}@example.com`,
    );
    expect([...result.answers.existing][0]).toMatch(/^202 /);
    expectIndistinguishable(result, 'reset');
  });

  it('answers a confirmation re-send for a pending and an unknown e-mail with the same status, body and time', async () => {
    const result = await compare(
      (client, email) => client.post('/api/v1/user/email/register', { email }),
      () => 'pending@example.com',
      (round) => `nobody-${round}@example.com`,
    );
    expect([...result.answers.existing][0]).toMatch(/^202 /);
    expectIndistinguishable(result, 're-send confirmation');
  });
});
