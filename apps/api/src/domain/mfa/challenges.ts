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

/**
 * Claims one answer to a live login challenge BEFORE it is checked: one conditional UPDATE counts it and returns
 * the challenge only while fewer than CHALLENGE_MAX_FAILURES answers were claimed, so however many answers arrive
 * at once, at most that many are ever checked (a read of the count followed by a write after the check let
 * concurrent answers all pass the read). `failures` counts claimed answers; a right one deletes the challenge.
 */
export async function claimChallengeAttempt(database: Database, idHash: string): Promise<Challenge | null> {
  const [row] = await database.db
    .update(mfaChallenges)
    .set({ failures: sql`${mfaChallenges.failures} + 1` })
    .where(
      and(
        eq(mfaChallenges.idHash, idHash),
        eq(mfaChallenges.purpose, 'login'),
        gt(mfaChallenges.expiresAt, sql`now()`),
        lt(mfaChallenges.failures, CHALLENGE_MAX_FAILURES),
      ),
    )
    .returning({
      idHash: mfaChallenges.idHash,
      userId: mfaChallenges.userId,
      webauthnChallenge: mfaChallenges.webauthnChallenge,
      failures: mfaChallenges.failures,
    });
  return row ?? null;
}

/** After a wrong answer: the challenge is deleted once it has used up its answers. */
export async function recordChallengeFailure(database: Database, challenge: Challenge): Promise<void> {
  if (challenge.failures >= CHALLENGE_MAX_FAILURES)
    await database.db.delete(mfaChallenges).where(eq(mfaChallenges.idHash, challenge.idHash));
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
