import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Notifications, postgresNotifications } from '../../src/db/notifications.ts';
import { TEST_DB } from '../helpers.ts';

/**
 * A stand-in for the PostgreSQL server: it counts connection attempts and drops each one, until `forwardTo`
 * is set, after which it relays connections to that server. Whether a real server is behind it depends on
 * the run (PGlite runs have none), so the part that needs one is skipped there.
 */
function flakyServer() {
  const state = { attempts: 0, forwardTo: undefined as { host: string; port: number } | undefined };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    state.attempts += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (!state.forwardTo) return socket.destroy();
    const upstream = net.connect(state.forwardTo);
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  return {
    state,
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe('code review: the LISTEN connection survives a failed first connect', () => {
  it('keeps the subscription and keeps trying when the first connect fails', async () => {
    const flaky = flakyServer();
    const port = await flaky.listen();
    const notifications: Notifications = postgresNotifications(`postgres://x:y@127.0.0.1:${port}/none`);
    cleanup.push(flaky.close, () => notifications.close());
    const unsubscribe = await notifications.subscribe('case_events_test', () => {});
    cleanup.push(async () => unsubscribe());
    // Retries come once a second: a second and a third attempt show the listener is still trying.
    await vi.waitFor(() => expect(flaky.state.attempts).toBeGreaterThanOrEqual(3), { timeout: 30_000 });
  });

  it.skipIf(TEST_DB !== 'postgres')(
    'listens once the server is reachable, and tells the subscriber to re-read',
    async () => {
      const serverUrl = new URL(process.env.TEST_DATABASE_URL!);
      const flaky = flakyServer();
      const port = await flaky.listen();
      const viaFlaky = new URL(serverUrl);
      viaFlaky.hostname = '127.0.0.1';
      viaFlaky.port = String(port);
      const notifications = postgresNotifications(viaFlaky.toString());
      cleanup.push(flaky.close, () => notifications.close());
      const channel = `case_test_${randomBytes(4).toString('hex')}`;
      const received: (string | null)[] = [];
      const unsubscribe = await notifications.subscribe(channel, (payload) => received.push(payload));
      cleanup.push(async () => unsubscribe());
      await vi.waitFor(() => expect(flaky.state.attempts).toBeGreaterThanOrEqual(1));

      flaky.state.forwardTo = { host: serverUrl.hostname, port: Number(serverUrl.port || 5432) };
      await vi.waitFor(() => expect(received).toContain(null), { timeout: 30_000 });
      const sender = new pg.Client({ connectionString: serverUrl.toString() });
      await sender.connect();
      cleanup.push(() => sender.end());
      await sender.query('SELECT pg_notify($1, $2)', [channel, 'report-after-outage']);
      await vi.waitFor(() => expect(received).toContain('report-after-outage'), { timeout: 30_000 });
    },
  );
});
