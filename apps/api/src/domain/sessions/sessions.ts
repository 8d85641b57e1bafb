import type { UserRole } from '@ansim/shared/constants';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import { keptStatement } from '../../db/kept-statements.ts';
import { companies, sessions, users } from '../../db/schema.ts';
import { serverNow } from '../../lib/server-clock.ts';
import { randomToken, sha256Hex } from '../../lib/tokens.ts';
import { secondFactorOf } from '../mfa/factors.ts';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: UserRole;
  companyId: string | null;
}

export interface ActiveSession {
  idHash: string;
  user: SessionUser;
  /**
   * Whether the account had a second factor (a confirmed TOTP or a passkey) when the session was looked up, at
   * the start of the request: read in the same statement, so the handler and operator routes that require one
   * (`requireHandler`, `requireOperator`) cost no query of their own.
   */
  hasSecondFactor: boolean;
  /** When the session ends if nothing else happens: the earlier of the absolute and the idle limit, epoch s. */
  expires: number;
}

type SessionLimits = Pick<Config, 'SESSION_ABSOLUTE_SECONDS' | 'SESSION_IDLE_SECONDS'>;

/** Last-seen is written at most once a minute per session: a read-heavy page should not be a write storm. */
const LAST_SEEN_WRITE_INTERVAL_MS = 60_000;

function effectiveExpiry(expiresAt: Date, lastSeenAt: Date, limits: SessionLimits): number {
  const idleEnd = lastSeenAt.getTime() + limits.SESSION_IDLE_SECONDS * 1000;
  return Math.floor(Math.min(expiresAt.getTime(), idleEnd) / 1000);
}

export async function createSession(
  database: Database,
  userId: string,
  limits: SessionLimits,
): Promise<{ id: string; expires: number }> {
  const id = randomToken();
  const now = new Date(serverNow());
  const expiresAt = new Date(now.getTime() + limits.SESSION_ABSOLUTE_SECONDS * 1000);
  await database.db.insert(sessions).values({ idHash: sha256Hex(id), userId, expiresAt, lastSeenAt: now });
  return { id, expires: effectiveExpiry(expiresAt, now, limits) };
}

/** The lookup of every request, built once with a placeholder for the session's hash (docs/decisions/0021). */
const sessionLookup = keptStatement((db: Db) =>
  db
    .select({
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      user: {
        id: users.id,
        email: users.email,
        name: users.name,
        role: users.role,
        companyId: users.companyId,
      },
      companySuspendedAt: companies.suspendedAt,
      hasSecondFactor: secondFactorOf(users.id),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(eq(sessions.idHash, sql.placeholder('idHash')))
    .limit(1),
);

/**
 * Finds a live session and slides its idle limit; an expired one, or one of a suspended company's user, is
 * deleted on sight. With `touch: false` the last-seen time is left as it was: starting an anonymous draft reads
 * the member's company this way, so the session's row keeps no trace of that instant (decision 0030).
 */
export async function findSession(
  database: Database,
  id: string,
  limits: SessionLimits,
  options: { touch?: boolean } = {},
): Promise<ActiveSession | null> {
  const idHash = sha256Hex(id);
  const [row] = await sessionLookup(database.db, { idHash });
  if (!row) return null;
  const now = serverNow();
  // A suspended company's users are logged out everywhere (the suspension deletes their sessions too).
  if (row.companySuspendedAt || effectiveExpiry(row.expiresAt, row.lastSeenAt, limits) * 1000 <= now) {
    await database.db.delete(sessions).where(eq(sessions.idHash, idHash));
    return null;
  }
  let lastSeenAt = row.lastSeenAt;
  if (options.touch !== false && now - row.lastSeenAt.getTime() >= LAST_SEEN_WRITE_INTERVAL_MS) {
    lastSeenAt = new Date(now);
    await database.db.update(sessions).set({ lastSeenAt }).where(eq(sessions.idHash, idHash));
  }
  return {
    idHash,
    user: row.user,
    hasSecondFactor: row.hasSecondFactor,
    expires: effectiveExpiry(row.expiresAt, lastSeenAt, limits),
  };
}

export async function deleteSession(database: Database, id: string): Promise<void> {
  await database.db.delete(sessions).where(eq(sessions.idHash, sha256Hex(id)));
}

export async function deleteUserSessions(executor: Pick<Db, 'delete'>, userId: string): Promise<void> {
  await executor.delete(sessions).where(eq(sessions.userId, userId));
}

export async function pruneExpiredSessions(database: Database, limits: SessionLimits): Promise<void> {
  await database.query(
    `DELETE FROM sessions WHERE expires_at < now() OR last_seen_at < now() - make_interval(secs => $1)`,
    [limits.SESSION_IDLE_SECONDS],
  );
}
