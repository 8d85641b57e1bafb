import { emptyReportForm, REPORT_LIMITS } from '@ansim/shared/report-form';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, reportBody } from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestClient, type TestContext } from './helpers.ts';

let ctx: TestContext;
let reporter: TestClient;

beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '에이 주식회사', 'a.example');
  reporter = await registerAndLogin(ctx, 'validate@a.example');
});
afterAll(() => ctx.close());

const long = 'ㄱ'.repeat(REPORT_LIMITS.longText + 1);
const short = 'ㄱ'.repeat(REPORT_LIMITS.shortText + 1);

/** Wrong values for a field, by the kind of its default: wrong types and values over their bounds. */
function badValuesFor(field: string, value: unknown): unknown[] {
  const wrongTypes = [42, true, { __proto__: { polluted: true } }, ['x']];
  if (typeof value === 'string') {
    return [
      ...wrongTypes,
      field.endsWith('_type') || field === 'defendant_truth' || field === 'report_type'
        ? 'not-an-option'
        : long,
    ];
  }
  if (Array.isArray(value)) {
    return [42, 'text', { a: 1 }, Array(101).fill({}), [42], [{ nested: { deep: [1, 2, 3] } }]];
  }
  return [42, 'not-an-email-or-date'.repeat(20), { a: 1 }, [1]];
}

describe('every report field with a wrong type or over its bound', () => {
  const fields = Object.entries(emptyReportForm()).filter(([field]) => field !== 'last_edit');

  it.each(fields)('%s → 400 with a detail, never 500', async (field, value) => {
    for (const bad of badValuesFor(field, value)) {
      const response = await reporter.post('/api/v1/report/', { ...reportBody('formal'), [field]: bad });
      expect(
        response.statusCode,
        `${field} = ${JSON.stringify(bad).slice(0, 60)}: ${response.body.slice(0, 200)}`,
      ).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
      expect(Object.keys(response.json().details ?? {}).some((key) => key.startsWith(field))).toBe(true);
    }
  });

  it('bounds nested strings and lists too', async () => {
    const cases: [string, unknown][] = [
      ['acts', [{ date: short, location: '', description: 'x', evidences: null }]],
      ['acts', [{ date: '2026-01-01', location: '', description: long, evidences: null }]],
      [
        'acts',
        Array(REPORT_LIMITS.acts + 1).fill({
          date: '2026-01-01',
          location: '',
          description: 'x',
          evidences: null,
        }),
      ],
      [
        'acts',
        [
          {
            date: '2026-01-01',
            location: '',
            description: 'x',
            evidences: Array(21).fill('00000000-0000-4000-8000-000000000000'),
          },
        ],
      ],
      ['witnesses', [{ name: short, department: '', position: '', email: null, email_sent_at: null }]],
      ['witnesses', [{ name: '이', department: '', position: '', email: 'nope', email_sent_at: null }]],
      ['harms', [{ type: 'unknown', description: 'x', evidences: null }]],
      ['wishes', ['not-a-wish']],
      ['protection_requests', ['not-a-measure']],
      ['concerns', [{ concern: long, companyRequest: '' }]],
    ];
    for (const [field, bad] of cases) {
      const response = await reporter.post('/api/v1/report/', { ...reportBody('formal'), [field]: bad });
      expect(response.statusCode, `${field}: ${response.body.slice(0, 200)}`).toBe(400);
    }
  });

  it('refuses a body that is not an object, and an oversized one', async () => {
    for (const payload of ['[]', '"text"', 'null', '42']) {
      const response = await reporter.request({
        method: 'POST',
        url: '/api/v1/report/',
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(400);
    }
    const huge = await reporter.post('/api/v1/report/', {
      ...reportBody('formal'),
      extra_info: 'x'.repeat(1024 * 1024),
    });
    expect(huge.statusCode).toBe(413);
  });

  it('refuses text PostgreSQL cannot store (NUL, a lone surrogate) with 400 on every route, never 500', async () => {
    const nulName = await reporter.post('/api/v1/user/', {
      email: 'nul@example.com',
      password: '안전한-비밀번호-2026!',
      name: '김\u0000민지',
    });
    expect(nulName.statusCode).toBe(400);
    expect(nulName.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { name: expect.any(String) } });
    const surrogate = await reporter.request({
      method: 'POST',
      url: '/api/v1/user/',
      // Escaped in the JSON text itself: JSON.stringify would not write a lone surrogate this way.
      payload:
        '{"email":"s@example.com","password":"안전한-비밀번호-2026!","name":"가입","join_code":"\\udf71"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(surrogate.statusCode).toBe(400);
    const report = await reporter.post('/api/v1/report/', {
      ...reportBody('formal'),
      acts: [{ date: '2026-03-02', location: '회의실', description: '폭언\u0000', evidences: [] }],
    });
    expect(report.statusCode).toBe(400);
    expect(report.json().details).toHaveProperty(['acts[0].description']);
    const query = await reporter.get('/api/v1/report/?page=%00');
    expect(query.statusCode).toBe(400);
  });
});
