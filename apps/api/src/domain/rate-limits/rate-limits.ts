import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';

/**
 * Fixed-window counters in PostgreSQL, so every API process shares them. Returns the count after this hit;
 * `amount` counts more than one at once (the bytes of an upload).
 */
export async function countHit(
  database: Database,
  key: string,
  windowSeconds: number,
  amount = 1,
): Promise<number> {
  const rows = await database.query<{ count: number }>(
    `INSERT INTO rate_limits (key, window_start, count, expires_at)
     VALUES ($1, to_timestamp(floor(extract(epoch from now()) / $2) * $2), $3,
             to_timestamp(floor(extract(epoch from now()) / $2) * $2) + make_interval(secs => $2 * 2))
     ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + $3
     RETURNING count`,
    [key, windowSeconds, amount],
  );
  return Number(rows[0]?.count ?? 0);
}

/**
 * An anonymous visitor's hit (intake pages, receipts), keyed by the process's visitor key (decision 0030). The
 * row ends with its window, and the same statement deletes every row whose window has ended: a database copy
 * holds at most the current window's counters, by hour, under keys nobody can turn back into addresses.
 */
export async function countVisitorHit(
  database: Database,
  key: string,
  windowSeconds: number,
): Promise<number> {
  const rows = await database.query<{ count: number }>(
    `WITH ended AS (DELETE FROM rate_limits WHERE expires_at <= now())
     INSERT INTO rate_limits (key, window_start, count, expires_at)
     VALUES ($1, to_timestamp(floor(extract(epoch from now()) / $2) * $2), 1,
             to_timestamp(floor(extract(epoch from now()) / $2) * $2) + make_interval(secs => $2))
     ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
     RETURNING count`,
    [key, windowSeconds],
  );
  return Number(rows[0]?.count ?? 0);
}

/**
 * Gives back a hit counted by `countHit` in the current window: for a limit on attempts that is claimed before
 * the attempt is checked (so concurrent attempts cannot all pass a read-then-write check) and should only
 * keep what failed.
 */
export async function releaseHit(database: Database, key: string, windowSeconds: number): Promise<void> {
  await database.query(
    `UPDATE rate_limits SET count = count - 1
     WHERE key = $1 AND window_start = to_timestamp(floor(extract(epoch from now()) / $2) * $2) AND count > 0`,
    [key, windowSeconds],
  );
}

export async function currentCount(database: Database, key: string, windowSeconds: number): Promise<number> {
  const rows = await database.query<{ count: number }>(
    `SELECT count FROM rate_limits
     WHERE key = $1 AND window_start = to_timestamp(floor(extract(epoch from now()) / $2) * $2)`,
    [key, windowSeconds],
  );
  return Number(rows[0]?.count ?? 0);
}

/** Seconds until the current window of this length ends, for `Retry-After`. */
export function secondsLeftInWindow(windowSeconds: number, now = Date.now()): number {
  const nowSeconds = Math.floor(now / 1000);
  return Math.max(1, windowSeconds - (nowSeconds % windowSeconds));
}

export function rateLimited(windowSeconds: number): AppError {
  return new AppError('RATE_LIMITED', {
    headers: { 'Retry-After': String(secondsLeftInWindow(windowSeconds)) },
  });
}

export async function pruneRateLimits(database: Database): Promise<void> {
  await database.query('DELETE FROM rate_limits WHERE expires_at <= now()');
}
