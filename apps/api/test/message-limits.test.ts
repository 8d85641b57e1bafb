import { MESSAGE_RATE_LIMITED_KO } from '@ansim/shared/messages.ko';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES_PER_CASE_AND_CALLER } from '../src/domain/reports/reporter-messages.ts';
import { createCompany, reportBody } from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestContext } from './helpers.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '메시지 제한 회사', 'messages.example');
});
afterAll(() => ctx.close());

describe('reporter messages: a limit per case and caller', () => {
  it(`answers the message after ${MESSAGES_PER_CASE_AND_CALLER} on one case with 429, Retry-After and a Korean message; another case keeps its own`, async () => {
    const reporter = await registerAndLogin(ctx, 'writer@messages.example');
    const first = (await reporter.post('/api/v1/report/', reportBody('brief'))).json().id as string;
    const second = (await reporter.post('/api/v1/report/', reportBody('brief'))).json().id as string;
    const statuses: number[] = [];
    for (let i = 0; i <= MESSAGES_PER_CASE_AND_CALLER; i += 1) {
      const posted = await reporter.post(`/api/v1/report/${first}/messages`, { body: `메시지 ${i}` });
      statuses.push(posted.statusCode);
      if (posted.statusCode === 429) {
        expect(posted.json()).toEqual({ code: 'RATE_LIMITED', message: MESSAGE_RATE_LIMITED_KO });
        expect(Number(posted.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(posted.headers['retry-after'])).toBeLessThanOrEqual(600);
      }
    }
    expect(statuses).toEqual([...Array(MESSAGES_PER_CASE_AND_CALLER).fill(201), 429]);
    // The refused message was not stored.
    const thread = (await reporter.get(`/api/v1/report/${first}/messages`)).json();
    expect(thread).toHaveLength(MESSAGES_PER_CASE_AND_CALLER);
    expect((await reporter.post(`/api/v1/report/${second}/messages`, { body: '다른 사건' })).statusCode).toBe(
      201,
    );
  });
});
