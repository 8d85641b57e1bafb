import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient, parseResponse, runClosedLoop, runInterleaved } from './lib.ts';

describe('parseResponse', () => {
  const head = 'HTTP/1.1 201 Created\r\ncontent-type: application/json\r\n';

  it('waits for the whole body its Content-Length announces', () => {
    const whole = Buffer.from(`${head}content-length: 9\r\n\r\n{"id":42}`);
    expect(parseResponse(whole.subarray(0, whole.length - 1))).toBeNull();
    expect(parseResponse(whole)).toEqual({ status: 201, length: whole.length, keepAlive: true });
  });

  it('ends a chunked body at its last chunk, and leaves what follows it', () => {
    const body = 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n4\r\nab\r\n\r\n3\r\nxyz\r\n0\r\n\r\n';
    const next = 'HTTP/1.1 204 No Content\r\n\r\n';
    expect(parseResponse(Buffer.from(body.slice(0, -2)))).toBeNull();
    expect(parseResponse(Buffer.from(body + next))).toEqual({
      status: 200,
      length: Buffer.byteLength(body),
      keepAlive: true,
    });
  });

  it('says when the server will close the socket', () => {
    const closing = Buffer.from(`${head}connection: close\r\ncontent-length: 0\r\n\r\n`);
    expect(parseResponse(closing)?.keepAlive).toBe(false);
  });
});

describe('httpClient', () => {
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.url === '/chunked') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('첫 조각');
        response.end('둘째 조각');
        return;
      }
      if (request.url === '/close') response.setHeader('connection', 'close');
      const echoed = JSON.stringify({ method: request.method, cookie: request.headers.cookie ?? null, body });
      response.writeHead(request.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      response.end(echoed);
    });
  });
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends each caller’s requests on one socket and reads every answer whole', async () => {
    const client = httpClient(base, 3);
    const sockets = new Set<unknown>();
    server.on('connection', (socket) => sockets.add(socket));
    try {
      const statuses = await Promise.all(
        Array.from({ length: 3 }, async (_, caller) => {
          const seen: number[] = [];
          for (let i = 0; i < 20; i++) {
            const path = i % 5 === 4 ? '/chunked' : '/echo';
            seen.push(await client.request('POST', path, { cookie: `caller=${caller}` }, '본문'.repeat(i)));
          }
          return seen;
        }),
      );
      expect(statuses.flat().filter((status) => status === 201)).toHaveLength(48);
      expect(statuses.flat().filter((status) => status === 200)).toHaveLength(12);
      expect(sockets.size).toBe(3);
    } finally {
      client.close();
    }
  });

  it('opens a new socket after the server closes one', async () => {
    const client = httpClient(base, 1);
    try {
      expect(await client.request('GET', '/close', {})).toBe(200);
      expect(await client.request('GET', '/echo', {})).toBe(200);
    } finally {
      client.close();
    }
  });
});

describe('closed loops', () => {
  const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  it('counts only the calls that end inside the measured window, over the window’s length', async () => {
    // One caller whose one call outlasts the window: it is made, and not counted.
    let started = 0;
    const straddling = await runClosedLoop(
      'straddling',
      async () => {
        started += 1;
        await pause(300);
      },
      { concurrency: 1, durationMs: 50 },
    );
    expect(started).toBe(1);
    expect(straddling).toMatchObject({ requests: 0, reqPerSec: 0, errors: 0 });
    // A failure outside the window is not counted either.
    const failingLate = await runClosedLoop(
      'failing late',
      async () => {
        await pause(300);
        throw new Error('late');
      },
      { concurrency: 1, durationMs: 50 },
    );
    expect(failingLate).toMatchObject({ requests: 0, errors: 0 });
    expect(failingLate.firstError).toBeUndefined();

    let calls = 0;
    const short = await runClosedLoop(
      'short',
      async () => {
        calls += 1;
        await pause(5);
      },
      { concurrency: 2, durationMs: 200, warmupMs: 50 },
    );
    expect(short.requests).toBeGreaterThan(0);
    // The warm-up's calls are made and not counted.
    expect(short.requests).toBeLessThan(calls);
    expect(short.reqPerSec).toBe(Math.round(short.requests / 0.2));
  });

  it('runs the scenarios in turns, the order rotated each round, and counts each one’s failures', async () => {
    const order: string[] = [];
    const scenario = (name: string, fails = false) => ({
      name,
      task: async () => {
        if (order.at(-1) !== name) order.push(name);
        await pause(2);
        if (fails) throw new Error(`${name} failed`);
      },
    });
    const measured = await runInterleaved([scenario('a'), scenario('b'), scenario('c', true)], {
      concurrency: 2,
      rounds: 3,
      sliceMs: 60,
      leadMs: 5,
      warmupMs: 10,
    });
    // The warm-ups in the order given, then a, b, c; b, c, a; c, a, b.
    expect(order).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'b', 'c', 'a', 'c', 'a', 'b']);
    expect(measured.map((entry) => entry.name)).toEqual(['a', 'b', 'c']);
    expect(measured[0]!.requests).toBeGreaterThan(0);
    expect(measured[0]!.reqPerSec).toBe(Math.round(measured[0]!.requests / 0.18));
    expect(measured[2]).toMatchObject({ requests: 0, firstError: 'c failed' });
    expect(measured[2]!.errors).toBeGreaterThan(0);
  });
});
