import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { captchaSolutions, mailOutbox, rateLimits, sessions, users } from '../src/db/schema.ts';
import { pruneExpiredRows, startPruning } from '../src/maintenance.ts';
import { createTestDatabase, testConfig } from './helpers.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.close();
});

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

async function keys() {
  return {
    sessions: (await database.db.select().from(sessions)).map((s) => s.idHash).sort(),
    rateLimits: (await database.db.select().from(rateLimits)).map((r) => r.key).sort(),
    captcha: (await database.db.select().from(captchaSolutions)).map((c) => c.id).sort(),
    mail: (await database.db.select().from(mailOutbox)).map((m) => m.template).sort(),
  };
}

it('deletes expired sessions, rate-limit windows, captcha solutions and week-old sent mail, and nothing else', async () => {
  const config = testConfig({ SESSION_IDLE_SECONDS: '3600' });
  const [user] = await database.db
    .insert(users)
    .values({ email: 'prune@corp.example', passwordHash: 'unused', name: '정리' })
    .returning();
  await database.db.insert(sessions).values([
    { idHash: 'live', userId: user!.id, expiresAt: minutesFromNow(60), lastSeenAt: minutesFromNow(-5) },
    { idHash: 'expired', userId: user!.id, expiresAt: minutesFromNow(-1), lastSeenAt: minutesFromNow(-5) },
    { idHash: 'idle', userId: user!.id, expiresAt: minutesFromNow(600), lastSeenAt: minutesFromNow(-61) },
  ]);
  await database.db.insert(rateLimits).values([
    { key: 'current', windowStart: minutesFromNow(-1), count: 3, expiresAt: minutesFromNow(1) },
    { key: 'old', windowStart: minutesFromNow(-10), count: 3, expiresAt: minutesFromNow(-8) },
  ]);
  await database.db.insert(captchaSolutions).values([
    { id: 'fresh', expiresAt: minutesFromNow(5) },
    { id: 'stale', expiresAt: minutesFromNow(-5) },
  ]);
  const mail = { to: 'a@corp.example', subject: 's', text: 't', html: 'h' };
  await database.db.insert(mailOutbox).values([
    { ...mail, template: 'sent-long-ago', status: 'sent', sentAt: minutesFromNow(-8 * 24 * 60) },
    { ...mail, template: 'sent-today', status: 'sent', sentAt: minutesFromNow(-60) },
    { ...mail, template: 'failed-long-ago', status: 'failed', createdAt: minutesFromNow(-30 * 24 * 60) },
    { ...mail, template: 'pending' },
  ]);

  await pruneExpiredRows(database, config);
  expect(await keys()).toEqual({
    sessions: ['live'],
    rateLimits: ['current'],
    captcha: ['fresh'],
    mail: ['failed-long-ago', 'pending', 'sent-today'],
  });

  // The scheduled prune runs once at start; stopping it waits for that run.
  await database.db.insert(captchaSolutions).values({ id: 'stale-again', expiresAt: minutesFromNow(-5) });
  const stop = startPruning({ database, config, logger: { warn: () => {} } as never, intervalMs: 3_600_000 });
  await stop();
  expect((await keys()).captcha).toEqual(['fresh']);
});
