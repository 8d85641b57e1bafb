import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents } from '../../src/db/schema.ts';
import { createCompany, createManager, reportBody } from '../fixtures.ts';
import { createTestApp, registerAndLogin, type TestClient, type TestContext } from '../helpers.ts';

// Lets a test make the export's reading of the cases fail part-way, as a database going away would.
const exportFailure = vi.hoisted(() => ({ on: false }));
vi.mock('../../src/domain/manager/list-reports.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/domain/manager/list-reports.ts')>();
  return {
    ...original,
    async *allCompanyReports(...args: Parameters<typeof original.allCompanyReports>) {
      if (exportFailure.on) throw new Error('SECRET connection lost while reading cases');
      yield* original.allCompanyReports(...args);
    },
  };
});

let ctx: TestContext;
let manager: TestClient;
let caseId: string;
let base: string;

beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '관리 주식회사', 'mgr.example');
  const reporter = await registerAndLogin(ctx, 'reporter@mgr.example');
  manager = await createManager(ctx, 'manager@mgr.example');
  caseId = (await reporter.post('/api/v1/report/', reportBody('formal'))).json().id;
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(() => ctx.close());

const cookieHeader = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

describe('F9: the case list and its CSV export refuse impossible dates and never break off mid-answer', () => {
  it('F9: answers ?date_from=2026-13-45 with 400 and a Korean message, not 500', async () => {
    for (const query of [
      'date_from=2026-13-45',
      'date_to=2026-02-30',
      'date_from=0000-01-01',
      'date_to=9999-12-31',
    ]) {
      for (const path of ['/api/v1/manager/report/', '/api/v1/manager/report/export.csv']) {
        const response = await manager.get(`${path}?${query}`);
        expect(response.statusCode, `${path}?${query}`).toBe(400);
        expect(response.json().code).toBe('VALIDATION_ERROR');
        const [field] = query.split('=');
        expect(response.json().details[`querystring.${field}`]).toBe(
          '날짜가 올바르지 않습니다. 달력에 있는 날짜를 YYYY-MM-DD 형식으로 입력해주세요.',
        );
      }
    }
    expect((await manager.get('/api/v1/manager/report/?date_from=2026-02-28')).statusCode).toBe(200);
  });

  it('F9: a failure while reading the cases is a clean error answer, not a 200 cut off half-way', async () => {
    exportFailure.on = true;
    try {
      const response = await fetch(`${base}/api/v1/manager/report/export.csv`, {
        headers: { cookie: cookieHeader(manager) },
      });
      expect(response.status).toBe(500);
      const body = await response.json();
      expect(body.code).toBe('INTERNAL_SERVER_ERROR');
      expect(JSON.stringify(body)).not.toContain('SECRET');
    } finally {
      exportFailure.on = false;
    }
    const ok = await fetch(`${base}/api/v1/manager/report/export.csv`, {
      headers: { cookie: cookieHeader(manager) },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-length')).not.toBeNull();
    expect(await ok.text()).toContain('사건번호');
  });
});

describe('code review: live updates and the audit trail', () => {
  it('reads of a case conversation by a manager are audited like every other case read', async () => {
    const reads = () =>
      ctx.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.targetId, caseId), eq(auditEvents.action, 'report.read')));
    // Repeated reads within ten minutes are one row with a count (decision: one row per burst of reads).
    const total = (rows: { repeatCount: number }[]) => rows.reduce((sum, row) => sum + row.repeatCount, 0);
    const before = total(await reads());
    const response = await manager.get(`/api/v1/manager/report/${caseId}/messages`);
    expect(response.statusCode).toBe(200);
    const after = await reads();
    expect(total(after)).toBe(before + 1);
    expect(after.at(-1)).toMatchObject({ targetType: 'report' });
  });

  it('a failed subscription is an ordinary error answer, not an open 200 stream', async () => {
    const subscribe = vi
      .spyOn(ctx.database.notifications, 'subscribe')
      .mockRejectedValueOnce(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    try {
      const response = await fetch(`${base}/api/v1/manager/report/${caseId}/events`, {
        headers: { cookie: cookieHeader(manager), accept: 'text/event-stream' },
      });
      expect(response.status).toBeGreaterThanOrEqual(500);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect((await response.json()).code).toMatch(/SERVICE_UNAVAILABLE|INTERNAL_SERVER_ERROR/);
    } finally {
      subscribe.mockRestore();
    }
  });

  it('a stream the client leaves is unsubscribed', async () => {
    const unsubscribed = vi.fn();
    const original = ctx.database.notifications.subscribe.bind(ctx.database.notifications);
    const subscribe = vi
      .spyOn(ctx.database.notifications, 'subscribe')
      .mockImplementationOnce(async (channel, listener) => {
        const stop = await original(channel, listener);
        return () => {
          unsubscribed();
          stop();
        };
      });
    try {
      const controller = new AbortController();
      const response = await fetch(`${base}/api/v1/manager/report/${caseId}/events`, {
        headers: { cookie: cookieHeader(manager), accept: 'text/event-stream' },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      await reader.read();
      controller.abort();
      await vi.waitFor(() => expect(unsubscribed).toHaveBeenCalledTimes(1), { timeout: 30_000 });
    } finally {
      subscribe.mockRestore();
    }
  });
});
