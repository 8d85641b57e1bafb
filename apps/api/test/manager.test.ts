import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, reports, users } from '../src/db/schema.ts';
import { anonymousDraft, createCompany, createManager, reportBody, upload } from './fixtures.ts';
import { createTestApp, mailsTo, registerAndLogin, TestClient, type TestContext } from './helpers.ts';

let ctx: TestContext;
let reporterA: TestClient;
let managerA: TestClient;
let managerB: TestClient;
let memberA: TestClient;
let caseA: string;
let caseB: string;

beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '에이 주식회사', 'a.example');
  await createCompany(ctx, '비 주식회사', 'b.example');
  reporterA = await registerAndLogin(ctx, 'reporter@a.example', { name: '김신고' });
  memberA = await registerAndLogin(ctx, 'member@a.example');
  managerA = await createManager(ctx, 'manager@a.example');
  managerB = await createManager(ctx, 'manager@b.example');
  const reporterB = await registerAndLogin(ctx, 'reporter@b.example');
  caseA = (await reporterA.post('/api/v1/report/', reportBody('formal'))).json().id;
  caseB = (await reporterB.post('/api/v1/report/', reportBody('brief'))).json().id;
});
afterAll(() => ctx.close());

describe('access matrix', () => {
  const endpoints = (id: string, measureId = '00000000-0000-4000-8000-000000000000') => [
    { method: 'GET', url: '/api/v1/manager/report/', ok: 200 },
    { method: 'GET', url: '/api/v1/manager/report/export.csv', ok: 200 },
    { method: 'GET', url: '/api/v1/manager/stats/reports', ok: 200 },
    { method: 'GET', url: `/api/v1/manager/report/${id}`, ok: 200, scoped: true },
    { method: 'GET', url: `/api/v1/manager/report/${id}/messages`, ok: 200, scoped: true },
    {
      method: 'POST',
      url: `/api/v1/manager/report/${id}/messages`,
      body: { body: '확인했습니다.' },
      ok: 201,
      scoped: true,
    },
    {
      method: 'POST',
      url: `/api/v1/manager/report/${id}/measures`,
      body: { measure: 'paid_leave' },
      ok: 201,
      scoped: true,
    },
    {
      method: 'PATCH',
      url: `/api/v1/manager/report/${id}/measures/${measureId}`,
      body: { reporter_consent: true },
      ok: 200,
      scoped: true,
    },
    {
      method: 'PATCH',
      url: `/api/v1/manager/report/${id}`,
      body: { status: 'investigating' },
      ok: 200,
      scoped: true,
    },
  ];

  it('answers 401 logged out, 403 to a member, 404 to another company’s manager and 200 to the right one', async () => {
    // A measure of case A to update, created through the API.
    const measure = (
      await managerA.post(`/api/v1/manager/report/${caseA}/measures`, { measure: 'separation' })
    ).json().id;
    const anonymousClient = {
      request: (options: Parameters<TestClient['request']>[0]) =>
        ctx.app.inject({ ...options, payload: options.json as object }),
    };
    for (const endpoint of endpoints(caseA, measure)) {
      const call = (client: Pick<TestClient, 'request'>) =>
        client.request({ method: endpoint.method as 'GET', url: endpoint.url, json: endpoint.body });
      const loggedOut = await anonymousClient.request({
        method: endpoint.method as 'GET',
        url: endpoint.url,
        json: endpoint.body,
      });
      // Unsafe calls without a CSRF token stop at the CSRF check; safe ones reach the session check.
      expect(loggedOut.statusCode, `${endpoint.method} ${endpoint.url} logged out`).toBe(
        endpoint.method === 'GET' ? 401 : 403,
      );
      const loggedOutWithCsrf = await new TestClient(ctx.app).request({
        method: endpoint.method as 'GET',
        url: endpoint.url,
        json: endpoint.body,
      });
      expect(loggedOutWithCsrf.statusCode, `${endpoint.method} ${endpoint.url} logged out with csrf`).toBe(
        401,
      );
      expect((await call(memberA)).statusCode, `${endpoint.method} ${endpoint.url} member`).toBe(403);
      expect((await call(reporterA)).statusCode, `${endpoint.method} ${endpoint.url} reporter`).toBe(403);
      const other = await call(managerB);
      expect(other.statusCode, `${endpoint.method} ${endpoint.url} other company`).toBe(
        endpoint.scoped ? 404 : endpoint.ok,
      );
      const own = await call(managerA);
      expect(own.statusCode, `${endpoint.method} ${endpoint.url} same company: ${own.body}`).toBe(
        endpoint.ok,
      );
    }
  });

  it('never counts another company’s cases in list, stats or export', async () => {
    const list = (await managerA.get('/api/v1/manager/report/')).json();
    const ids = list.results.map((row: { id: string }) => row.id);
    expect(ids).toContain(caseA);
    expect(ids).not.toContain(caseB);
    const statsA = (await managerA.get('/api/v1/manager/stats/reports')).json();
    const statsB = (await managerB.get('/api/v1/manager/stats/reports')).json();
    expect(statsA.total).toBe(list.count);
    expect(statsB.total).toBe(1);
    const csv = (await managerA.get('/api/v1/manager/report/export.csv')).body;
    const caseNumberB = (await managerB.get(`/api/v1/manager/report/${caseB}`)).json().case_number;
    const caseNumberA = (await managerA.get(`/api/v1/manager/report/${caseA}`)).json().case_number;
    expect(csv).toContain(caseNumberA);
    if (caseNumberA !== caseNumberB) expect(csv).not.toContain(caseNumberB);
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(list.count + 1);
  });
});

describe('anonymity', () => {
  const sentinels = {
    name: 'SENTINEL이름',
    email: 'sentinel.reporter@a.example',
    department: 'SENTINEL부서',
    role: 'SENTINEL직급',
  };

  async function fileReport(type: 'anonym' | 'formal') {
    const email = type === 'anonym' ? sentinels.email : `formal.${sentinels.email}`;
    const member = await registerAndLogin(ctx, email, { name: sentinels.name });
    // The member's browser also sends its account cookie along with the draft's token: it must not count.
    const client =
      type === 'anonym' ? await anonymousDraft(ctx, member, { withAccountCookies: true }) : member;
    const evidence = (await upload(client, `${sentinels.name}_녹음.txt`, Buffer.from('녹음 내용'))).json();
    const identity =
      type === 'anonym'
        ? {}
        : {
            reporter_name: sentinels.name,
            reporter_department: sentinels.department,
            reporter_role: sentinels.role,
          };
    const { id } = (
      await client.post(
        '/api/v1/report/',
        reportBody(type, {
          ...identity,
          acts: [{ date: '2026-10-01', location: '본사', description: '폭언', evidences: [evidence.id] }],
        }),
      )
    ).json();
    await client.post(`/api/v1/report/${id}/messages`, { body: '추가로 알려드립니다.' });
    await managerA.request({
      method: 'PATCH',
      url: `/api/v1/manager/report/${id}`,
      json: { status: 'investigating', note_for_reporter: '조사를 시작합니다.' },
    });
    return { id, evidenceId: evidence.id as string };
  }

  /** Everything a manager can fetch about a case, as one string to search. */
  async function managerVisibleText(id: string, evidenceId: string): Promise<string> {
    const parts: string[] = [];
    const collect = (response: { body: string; headers: Record<string, unknown> }) => {
      parts.push(response.body, JSON.stringify(response.headers));
    };
    collect(await managerA.get('/api/v1/manager/report/'));
    collect(await managerA.get(`/api/v1/manager/report/?q=${encodeURIComponent('박행위')}`));
    collect(await managerA.get(`/api/v1/manager/report/${id}`));
    collect(await managerA.get(`/api/v1/manager/report/${id}/messages`));
    collect(await managerA.get('/api/v1/manager/report/export.csv'));
    collect(await managerA.get('/api/v1/manager/stats/reports'));
    collect(await managerA.get(`/api/v1/file/${evidenceId}/`));
    parts.push(await firstEvent(id));
    const mails = await mailsTo(ctx.database, 'manager@a.example');
    for (const mail of mails) parts.push(mail.subject, mail.text, mail.html);
    return parts.join('\n');
  }

  async function firstEvent(id: string): Promise<string> {
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => serverAddress());
    const response = await fetch(`${address}/api/v1/manager/report/${id}/events`, {
      headers: { cookie: [...managerA.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    await reader.cancel();
    return new TextDecoder().decode(value);
  }

  function serverAddress(): string {
    const address = ctx.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    return `http://127.0.0.1:${address.port}`;
  }

  it('shows a manager nothing that identifies the reporter of an anonymous report', async () => {
    const { id, evidenceId } = await fileReport('anonym');
    const text = await managerVisibleText(id, evidenceId);
    const detail = (await managerA.get(`/api/v1/manager/report/${id}`)).json();
    expect(detail.reporter).toBeNull();
    expect(detail.messages[0].author_name).toBe('신고인');
    expect(detail.files[0].name).toBe('증거자료-1.txt');
    expect(detail).not.toHaveProperty('reporter_id');
    const [row] = await ctx.database.db.select().from(reports).where(eq(reports.id, id));
    expect(row!.reporterId).toBeNull();
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, sentinels.email));
    for (const sentinel of [...Object.values(sentinels), user!.id]) {
      expect(text.includes(sentinel), `found ${sentinel}`).toBe(false);
    }
  });

  it('finds the same sentinels for a formal report, so the search above can fail', async () => {
    const { id, evidenceId } = await fileReport('formal');
    const text = await managerVisibleText(id, evidenceId);
    for (const sentinel of Object.values(sentinels))
      expect(text.includes(sentinel), `missing ${sentinel}`).toBe(true);
  });
});

describe('procedure', () => {
  it('moves along the allowed transitions, records history, and refuses others with 409', async () => {
    const { id } = (await reporterA.post('/api/v1/report/', reportBody('brief'))).json();
    const skip = await managerA.request({
      method: 'PATCH',
      url: `/api/v1/manager/report/${id}`,
      json: { status: 'closed' },
    });
    expect(skip.statusCode).toBe(409);
    expect(skip.json().code).toBe('INVALID_TRANSITION');
    const moved = await managerA.request({
      method: 'PATCH',
      url: `/api/v1/manager/report/${id}`,
      json: {
        status: 'investigating',
        note_for_reporter: '조사를 시작했습니다.',
        internal_note: 'INTERNAL-ONLY 메모',
      },
    });
    expect(moved.statusCode).toBe(200);
    const view = moved.json();
    expect(view.status).toBe('investigating');
    expect(view.acknowledged_at).not.toBeNull();
    // A status change acknowledges the case; only feedback (an outcome or a note marked so) meets the 3 months.
    expect(view.feedback_at).toBeNull();
    expect(view.allowed_transitions).toEqual(['action_taken', 'closed', 'dismissed']);
    expect(view.history.at(-1)).toMatchObject({
      from_status: 'received',
      to_status: 'investigating',
      actor_name: '김담당',
      internal_note: 'INTERNAL-ONLY 메모',
    });

    const reporterView = (await reporterA.get(`/api/v1/report/${id}`)).json();
    expect(reporterView.status).toBe('investigating');
    expect(reporterView.history.at(-1).note_for_reporter).toBe('조사를 시작했습니다.');
    expect(JSON.stringify(reporterView)).not.toContain('INTERNAL-ONLY');
    const mail = (await mailsTo(ctx.database, 'reporter@a.example')).filter(
      (row) => row.template === 'case_updated',
    );
    expect(mail.length).toBeGreaterThan(0);
    expect(mail.map((row) => row.text).join('')).not.toContain('조사를 시작했습니다.');

    await managerA.request({
      method: 'PATCH',
      url: `/api/v1/manager/report/${id}`,
      json: { status: 'action_taken', outcome: { finding: 'substantiated', actions: ['warning'] } },
    });
    const closed = await managerA.request({
      method: 'PATCH',
      url: `/api/v1/manager/report/${id}`,
      json: { status: 'closed' },
    });
    expect(closed.json().closed_at).not.toBeNull();
    // An ended case can only be reopened.
    expect(closed.json().allowed_transitions).toEqual(['investigating']);
    const audit = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, 'report.status')));
    expect(audit).toHaveLength(3);
  });

  it('flags overdue cases in list, filter and stats', async () => {
    const { id } = (await reporterA.post('/api/v1/report/', reportBody('formal'))).json();
    await ctx.database.db
      .update(reports)
      .set({ ackDueAt: new Date(Date.now() - 1000) })
      .where(eq(reports.id, id));
    const overdue = (await managerA.get('/api/v1/manager/report/?overdue=true&page_size=100')).json();
    const row = overdue.results.find((r: { id: string }) => r.id === id);
    expect(row.is_ack_overdue).toBe(true);
    expect(
      overdue.results.every(
        (r: { is_ack_overdue: boolean; is_feedback_overdue: boolean }) =>
          r.is_ack_overdue || r.is_feedback_overdue,
      ),
    ).toBe(true);
    const stats = (await managerA.get('/api/v1/manager/stats/reports')).json();
    expect(stats.overdue.ack).toBeGreaterThanOrEqual(1);
    expect(stats.by_month).toHaveLength(12);
    expect(stats.by_month.at(-1).count).toBeGreaterThanOrEqual(1);
    expect(Object.keys(stats.by_status)).toEqual([
      'received',
      'investigating',
      'action_taken',
      'closed',
      'dismissed',
    ]);
  });

  it('counts each case in its month of Korean time, at the exact month boundary too', async () => {
    const before = (await managerA.get('/api/v1/manager/stats/reports')).json();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await reporterA.post('/api/v1/report/', reportBody('brief'))).json().id);
    const seoulNow = new Date(Date.now() + 9 * 3600 * 1000);
    // 00:00 KST on the first day of the month before last: the first instant that belongs to that month.
    const monthStart = new Date(
      Date.UTC(seoulNow.getUTCFullYear(), seoulNow.getUTCMonth() - 2, 1) - 9 * 3600 * 1000,
    );
    const createdAt = [
      monthStart,
      new Date(monthStart.getTime() - 1),
      new Date(Date.now() - 400 * 86_400_000),
    ];
    for (const [i, id] of ids.entries())
      await ctx.database.db.update(reports).set({ createdAt: createdAt[i]! }).where(eq(reports.id, id));
    const after = (await managerA.get('/api/v1/manager/stats/reports')).json();
    const counts = (stats: { by_month: { count: number }[] }) => stats.by_month.map((month) => month.count);
    const expected = counts(before);
    expected[9]! += 1;
    expected[8]! += 1;
    expect(counts(after)).toEqual(expected);
    // Every count is over the range of months, by default the last 12: the case of 400 days ago is outside.
    expect(after.total).toBe(before.total + 2);
    expect(after.by_type.brief).toBe(before.by_type.brief + 2);
  });

  it('filters by status, type and text, and pages', async () => {
    const byType = (await managerA.get('/api/v1/manager/report/?type=formal')).json();
    expect(byType.results.every((row: { report_type: string }) => row.report_type === 'formal')).toBe(true);
    // The accused name is sealed: it is found by its whole name (blind index), not by a part of it.
    const byName = (await managerA.get(`/api/v1/manager/report/?q=${encodeURIComponent('박 행위')}`)).json();
    expect(byName.count).toBeGreaterThan(0);
    expect(byName.results.every((row: { accused_name: string }) => row.accused_name === '박행위')).toBe(true);
    const byPart = (await managerA.get(`/api/v1/manager/report/?q=${encodeURIComponent('행위')}`)).json();
    expect(byPart.count).toBe(0);
    const none = (await managerA.get(`/api/v1/manager/report/?q=${encodeURIComponent('%')}`)).json();
    expect(none.count).toBe(0);
    const paged = (await managerA.get('/api/v1/manager/report/?page_size=1')).json();
    expect(paged.results).toHaveLength(1);
    expect(paged.next).toContain('page=2');
    expect((await managerA.get('/api/v1/manager/report/?page_size=500')).statusCode).toBe(400);
    expect((await managerA.get('/api/v1/manager/report/?status=bogus')).statusCode).toBe(400);
    // A NUL byte cannot reach PostgreSQL as text: refused as a bad search, in the list and the export alike.
    for (const path of ['/api/v1/manager/report/', '/api/v1/manager/report/export.csv']) {
      const nul = await managerA.get(`${path}?q=%00%E1%84%80`);
      expect(nul.statusCode).toBe(400);
      expect(nul.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('exports CSV with a byte-order mark, Korean headers and formula-safe cells', async () => {
    await reporterA.post(
      '/api/v1/report/',
      reportBody('brief', { perpetrator_name: '=HYPERLINK("http://evil")' }),
    );
    const response = await managerA.get('/api/v1/manager/report/export.csv');
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(response.body).toContain('"사건번호","신고 유형","처리 상태"');
    expect(response.body).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });
});

describe('protective measures and messages', () => {
  it('records the reporter’s requests, consent and the decision with its reason', async () => {
    const { id } = (await reporterA.post('/api/v1/report/', reportBody('formal'))).json();
    const view = (await managerA.get(`/api/v1/manager/report/${id}`)).json();
    expect(view.measures.map((m: { measure: string }) => m.measure).sort()).toEqual([
      'paid_leave',
      'separation',
    ]);
    expect(view.measures.every((m: { requested_by_reporter: boolean }) => m.requested_by_reporter)).toBe(
      true,
    );
    const measure = view.measures[0];
    const noReason = await managerA.request({
      method: 'PATCH',
      url: `/api/v1/manager/report/${id}/measures/${measure.id}`,
      json: { decision: 'refused' },
    });
    expect(noReason.statusCode).toBe(400);
    // Nothing to change (unknown keys are dropped by the schema): refused, not an empty UPDATE and a 500.
    for (const json of [{}, { constructor: 1 }]) {
      const empty = await managerA.request({
        method: 'PATCH',
        url: `/api/v1/manager/report/${id}/measures/${measure.id}`,
        json,
      });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().code).toBe('VALIDATION_ERROR');
    }
    const decided = await managerA.request({
      method: 'PATCH',
      url: `/api/v1/manager/report/${id}/measures/${measure.id}`,
      json: {
        decision: 'refused',
        reason: '대체 근무지가 없어 유급휴가로 대신합니다.',
        reporter_consent: true,
      },
    });
    const updated = decided.json().find((m: { id: string }) => m.id === measure.id);
    expect(updated).toMatchObject({ decision: 'refused', reporter_consent: true });
    expect(updated.decided_at).not.toBeNull();
  });

  it('keeps a thread between reporter and managers', async () => {
    const { id } = (await reporterA.post('/api/v1/report/', reportBody('brief'))).json();
    await reporterA.post(`/api/v1/report/${id}/messages`, { body: '언제쯤 조사가 시작되나요?' });
    await managerA.post(`/api/v1/manager/report/${id}/messages`, { body: '이번 주에 시작합니다.' });
    const reporterThread = (await reporterA.get(`/api/v1/report/${id}/messages`)).json();
    expect(reporterThread.map((m: { author_name: string }) => m.author_name)).toEqual(['나', '담당자']);
    const managerThread = (await managerA.get(`/api/v1/manager/report/${id}/messages`)).json();
    expect(managerThread.map((m: { author_kind: string }) => m.author_kind)).toEqual(['reporter', 'manager']);
    expect((await memberA.get(`/api/v1/report/${id}/messages`)).statusCode).toBe(404);
    expect((await reporterA.post(`/api/v1/report/${id}/messages`, { body: ' ' })).statusCode).toBe(400);
  });
});

describe('live updates', () => {
  it('streams the case state at once and again when the reporter writes', async () => {
    const { id } = (await reporterA.post('/api/v1/report/', reportBody('brief'))).json();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => undefined);
    const address = ctx.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${address.port}/api/v1/manager/report/${id}/events`, {
      headers: {
        cookie: [...managerA.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        accept: 'text/event-stream',
      },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const nextEvent = async () => {
      while (!buffer.includes('\n\n')) {
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
      const end = buffer.indexOf('\n\n');
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      return JSON.parse(event.replace(/^data: /, ''));
    };
    const first = await nextEvent();
    expect(first.messages).toHaveLength(0);
    await reporterA.post(`/api/v1/report/${id}/messages`, { body: '새 메시지입니다' });
    const second = await nextEvent();
    expect(second.messages.map((m: { body: string }) => m.body)).toEqual(['새 메시지입니다']);
    controller.abort();
    const stranger = await fetch(`http://127.0.0.1:${address.port}/api/v1/manager/report/${id}/events`, {
      headers: { cookie: [...managerB.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(stranger.status).toBe(404);
  });
});
