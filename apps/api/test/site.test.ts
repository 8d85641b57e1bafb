import { siteInfoSchema } from '@ansim/shared/site';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.ts';

let context: TestContext | undefined;
afterEach(async () => {
  await context?.close();
  context = undefined;
});

describe('GET /api/v1/site/', () => {
  it('names the operator from the configuration, to anyone, without a session', async () => {
    context = await createTestApp({
      config: { OPERATOR_NAME: '주식회사 안심', OPERATOR_CONTACT: 'privacy@ansim.example' },
    });
    const response = await context.app.inject({ url: '/api/v1/site/' });
    expect(response.statusCode).toBe(200);
    expect(siteInfoSchema.parse(response.json())).toEqual({
      operator_name: '주식회사 안심',
      operator_contact: 'privacy@ansim.example',
    });
  });

  it('has defaults, so an installation without them still says who runs it', async () => {
    context = await createTestApp();
    const body = siteInfoSchema.parse((await context.app.inject({ url: '/api/v1/site' })).json());
    expect(body.operator_name).toBe('안심신고 운영팀');
    expect(body.operator_contact).toBe('privacy@ansim.local');
  });

  it('refuses an empty or overlong operator name at start-up', async () => {
    const { loadConfig } = await import('../src/config.ts');
    expect(() => loadConfig({ OPERATOR_NAME: ' ' })).toThrow(/OPERATOR_NAME/);
    expect(() => loadConfig({ OPERATOR_CONTACT: 'x'.repeat(201) })).toThrow(/OPERATOR_CONTACT/);
  });
});
