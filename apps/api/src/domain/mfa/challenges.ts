import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { mfaChallenges } from '../../db/schema.ts';
import { randomToken, sha256Hex } from '../../lib/tokens.ts';

/** Long enough to open an authenticator app or touch a key; short enough that a left-open tab dies. */
export const CHALLENGE_SECONDS = 300;
/** Wrong codes one login challenge survives; after that the password must be given again. */
export const CHALLENGE_MAX_FAILURES = 5;

export type ChallengePurpose = 'login' | 'passkey_register';

export interface Challenge {
  idHash: string;
  userId: string;
  webauthnChallenge: string | null;
  failures: number;
}

/** A new challenge; the id goes to the client (cookie), only its SHA-256 is stored. */
export async function createChallenge(
  database: Database,
  userId: string,
  purpose: ChallengePurpose,
  webauthnChallenge: string | null = null,
): Promise<string> {
  const id = randomToken();
  await database.db.insert(mfaChallenges).values({
    idHash: sha256Hex(id),
    userId,
    purpose,
    webauthnChallenge,
    expiresAt: new Date(Date.now() + CHALLENGE_SECONDS * 1000),
  });
  return id;
}

export async function findChallenge(
  database: Database,
  id: string | undefined,
  purpose: ChallengePurpose,
): Promise<Challenge | null> {
  if (!id || id.length > 64) return null;
  const [row] = await database.db
    .select({
      idHash: mfaChallenges.idHash,
      userId: mfaChallenges.userId,
      webauthnChallenge: mfaChallenges.webauthnChallenge,
      failures: mfaChallenges.failures,
    })
    .from(mfaChallenges)
    .where(
      and(
        eq(mfaChallenges.idHash, sha256Hex(id)),
        eq(mfaChallenges.purpose, purpose),
        gt(mfaChallenges.expiresAt, sql`now()`),
      ),
    );
  return row ?? null;
}

export async function setWebauthnChallenge(database: Database, idHash: string, value: string): Promise<void> {
  await database.db
    .update(mfaChallenges)
    .set({ webauthnChallenge: value })
    .where(eq(mfaChallenges.idHash, idHash));
}

/** Counts a wrong answer; the challenge is deleted when it has had too many. */
export async function recordChallengeFailure(database: Database, idHash: string): Promise<void> {
  const [row] = await database.db
    .update(mfaChallenges)
    .set({ failures: sql`${mfaChallenges.failures} + 1` })
    .where(eq(mfaChallenges.idHash, idHash))
    .returning({ failures: mfaChallenges.failures });
  if (row && row.failures >= CHALLENGE_MAX_FAILURES)
    await database.db.delete(mfaChallenges).where(eq(mfaChallenges.idHash, idHash));
}

/** Deletes the challenge; true only for the one caller that actually deleted it (single use under a race). */
export async function takeChallenge(database: Database, idHash: string): Promise<boolean> {
  const deleted = await database.db
    .delete(mfaChallenges)
    .where(eq(mfaChallenges.idHash, idHash))
    .returning({ idHash: mfaChallenges.idHash });
  return deleted.length === 1;
}

export async function deleteUserChallenges(
  database: Database,
  userId: string,
  purpose: ChallengePurpose,
): Promise<void> {
  await database.db
    .delete(mfaChallenges)
    .where(and(eq(mfaChallenges.userId, userId), eq(mfaChallenges.purpose, purpose)));
}

export async function pruneMfaChallenges(database: Database): Promise<void> {
  await database.db.delete(mfaChallenges).where(lt(mfaChallenges.expiresAt, sql`now()`));
}
