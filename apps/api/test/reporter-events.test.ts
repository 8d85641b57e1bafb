import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousDraft, createCompany, createManager, reportBody } from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestClient, type TestContext } from './helpers.ts';

let ctx: TestContext;
let base: string;
let reporter: TestClient;
let otherReporter: TestClient;
let manager: TestClient;

beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '에이 주식회사', 'a.example');
  reporter = await registerAndLogin(ctx, 'reporter@a.example', { name: '김신고' });
  otherReporter = await registerAndLogin(ctx, 'other@a.example', { name: '이신고' });
  manager = await createManager(ctx, 'manager@a.example');
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(() => ctx.close());

const cookieHeader = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

/** Opens the reporter's stream over a real connection, as the browser does. */
async function openStream(client: TestClient | null, id: string) {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/v1/report/${id}/events`, {
    headers: { accept: 'text/event-stream', ...(client ? { cookie: cookieHeader(client) } : {}) },
    signal: controller.signal,
  });
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const decoder = new TextDecoder();
  let buffer = '';
  /** The next event's data, skipping keep-alive comments; null once the server has ended the stream. */
  const nextEvent = async (): Promise<unknown> => {
    while (true) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const piece = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (piece.startsWith(':')) continue;
        return JSON.parse(piece.replace(/^data: /, ''));
      }
      reader ??= response.body!.getReader();
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += decoder.decode(value, { stream: true });
    }
  };
  return { response, nextEvent, close: () => controller.abort() };
}

const patch = (url: string, json: unknown) => manager.request({ method: 'PATCH', url, json });

async function anonymousReport(): Promise<{ id: string; holder: TestClient }> {
  const holder = await anonymousDraft(ctx, reporter);
  const response = await holder.post('/api/v1/report/', reportBody('anonym'));
  expect(response.statusCode).toBe(201);
  return { id: response.json().id, holder };
}

describe('the reporter’s case stream', () => {
  it('signals a manager’s status change and message to the reporter’s account, with no case content', async () => {
    const { id } = (await reporter.post('/api/v1/report/', reportBody('formal'))).json();
    const stream = await openStream(reporter, id);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toContain('text/event-stream');
    expect(stream.response.headers.get('cache-control')).toBe('no-store');
    expect(await stream.nextEvent()).toEqual({ type: 'changed' });

    const patched = await patch(`/api/v1/manager/report/${id}`, {
      status: 'investigating',
      note_for_reporter: '조사를 시작했습니다.',
    });
    expect(patched.statusCode).toBe(200);
    expect(await stream.nextEvent()).toEqual({ type: 'changed' });
    // The page re-reads the case through the report route, which shows the change.
    expect((await reporter.get(`/api/v1/report/${id}`)).json().status).toBe('investigating');

    await manager.post(`/api/v1/manager/report/${id}/messages`, { body: '면담 일정을 잡겠습니다.' });
    expect(await stream.nextEvent()).toEqual({ type: 'changed' });
    stream.close();
  });

  it('signals a change to the holder of the report’s receipt, and ends when the receipt session does', async () => {
    const { id, holder } = await anonymousReport();
    const stream = await openStream(holder, id);
    expect(stream.response.status).toBe(200);
    expect(await stream.nextEvent()).toEqual({ type: 'changed' });
    await patch(`/api/v1/manager/report/${id}`, { status: 'investigating' });
    expect(await stream.nextEvent()).toEqual({ type: 'changed' });

    expect((await holder.delete('/api/v1/receipt/')).statusCode).toBe(204);
    await manager.post(`/api/v1/manager/report/${id}/messages`, { body: '확인했습니다.' });
    expect(await stream.nextEvent()).toBeNull();
  });

  it('ends when the reporter logs out', async () => {
    const client = await registerAndLogin(ctx, 'leaving@a.example');
    const { id } = (await client.post('/api/v1/report/', reportBody('brief'))).json();
    const stream = await openStream(client, id);
    expect(await stream.nextEvent()).toEqual({ type: 'changed' });
    // The open stream was authorised with the session this ends.
    expect((await client.delete('/api/v1/token/')).statusCode).toBe(204);
    await patch(`/api/v1/manager/report/${id}`, { status: 'investigating' });
    expect(await stream.nextEvent()).toBeNull();
  });

  it('refuses a stranger, another reporter and another report’s receipt holder as GET /report/{id} does', async () => {
    const { id } = (await reporter.post('/api/v1/report/', reportBody('formal'))).json();
    const { id: anonymousId, holder } = await anonymousReport();
    const { holder: otherHolder } = await anonymousReport();
    const cases: [string, TestClient | null, string][] = [
      ['stranger', null, id],
      ['another reporter', otherReporter, id],
      ['another report’s receipt holder', otherHolder, id],
      ['stranger, anonymous report', null, anonymousId],
      ['another reporter, anonymous report', otherReporter, anonymousId],
      ['another report’s receipt holder, anonymous report', otherHolder, anonymousId],
      ['the filing account, anonymous report', reporter, anonymousId],
      ['the receipt holder, another report', holder, id],
    ];
    for (const [who, client, reportId] of cases) {
      const plain = client
        ? await client.get(`/api/v1/report/${reportId}`)
        : await ctx.app.inject({ method: 'GET', url: `/api/v1/report/${reportId}` });
      expect([401, 404], who).toContain(plain.statusCode);
      const stream = await openStream(client, reportId);
      expect(stream.response.status, who).toBe(plain.statusCode);
      expect(stream.response.headers.get('content-type'), who).not.toContain('text/event-stream');
      expect(await stream.response.json(), who).toMatchObject({ code: plain.json().code });
    }
  });
});
