import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { createTestDatabase, TEST_DB } from './helpers.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const waitUntilReceived = (received: (string | null)[], payload: string | null) =>
  vi.waitFor(() => expect(received).toContain(payload), { timeout: 30_000 });

describe('live-update notifications', () => {
  it('delivers a NOTIFY sent after the change commits', async () => {
    const received: (string | null)[] = [];
    const unsubscribe = await database.notifications.subscribe('case_test_a', (payload) =>
      received.push(payload),
    );
    await database.query(`SELECT pg_notify('case_test_a', 'report-1')`);
    await waitUntilReceived(received, 'report-1');
    unsubscribe();
  });

  // A server restart or failover drops the LISTEN connection; whatever was notified meanwhile is lost, so the
  // subscribers are told to re-read once the connection is back (the case page would otherwise stay stale).
  it.skipIf(TEST_DB !== 'postgres')(
    'listens again after the server drops the connection, and tells subscribers to re-read',
    async () => {
      const received: (string | null)[] = [];
      const unsubscribe = await database.notifications.subscribe('case_test_b', (payload) =>
        received.push(payload),
      );
      const [terminated] = await database.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
      );
      expect(terminated!.n).toBeGreaterThanOrEqual(1);
      await waitUntilReceived(received, null);
      await database.query(`SELECT pg_notify('case_test_b', 'report-2')`);
      await waitUntilReceived(received, 'report-2');
      unsubscribe();
    },
  );
});
