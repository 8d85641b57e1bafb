import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { hmacHex } from '../../lib/tokens.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { recoveryCodeUsedMail } from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import { countHit, rateLimited, releaseHit } from '../rate-limits/rate-limits.ts';
import { createSession } from '../sessions/sessions.ts';
import {
  type Challenge,
  claimChallengeAttempt,
  findChallenge,
  recordChallengeFailure,
  takeChallenge,
} from './challenges.ts';
import { consumeRecoveryCode, type Deps, mfaStatus } from './factors.ts';
import { passkeyLoginOptions, verifyPasskeyLogin } from './passkeys.ts';
import { verifyActiveTotp } from './totp.ts';

const MINUTE = 60;
const HOUR = 3600;
/**
 * Wrong second-factor answers per account per hour, on top of the few each challenge allows. With a one-step
 * window three 6-digit codes are valid at a time, so this keeps an attacker who has the password at about
 * 0.003 % per hour, while every new try also costs them a password login.
 */
export const MFA_FAILURES_PER_ACCOUNT_PER_HOUR = 10;

type Client = { addressKey: string; challengeId: string | undefined };

/** The checks before a challenge is used: per-IP rate and a live challenge. */
async function openChallenge(deps: Deps, client: Client): Promise<Challenge> {
  const { database, config } = deps;
  const ipKey = `mfa-ip:${client.addressKey}`;
  if ((await countHit(database, ipKey, MINUTE)) > config.LOGIN_LIMIT_PER_IP_PER_MINUTE)
    throw rateLimited(MINUTE);
  const challenge = await findChallenge(database, client.challengeId, 'login');
  if (!challenge) throw new AppError('MFA_CHALLENGE_EXPIRED');
  return challenge;
}

/**
 * The checks every second-factor ANSWER passes before it is evaluated, each claimed atomically first: the
 * account's hour (a counter incremented before the check, given back when the answer is right) and then one of
 * the challenge's answers (a conditional UPDATE … RETURNING). Forty answers sent at once therefore have at most
 * CHALLENGE_MAX_FAILURES evaluated, where a read of the counts followed by a write after the check let them all
 * read the same count.
 */
async function claimAnswer(deps: Deps, client: Client): Promise<{ challenge: Challenge; failKey: string }> {
  const { database, config } = deps;
  const opened = await openChallenge(deps, client);
  const failKey = `mfa-fail:${hmacHex(config.SECRET_KEY, opened.userId)}`;
  if ((await countHit(database, failKey, HOUR)) > MFA_FAILURES_PER_ACCOUNT_PER_HOUR) throw rateLimited(HOUR);
  const challenge = await claimChallengeAttempt(database, opened.idHash);
  if (!challenge) {
    await releaseHit(database, failKey, HOUR);
    throw new AppError('MFA_CHALLENGE_EXPIRED');
  }
  return { challenge, failKey };
}

async function refuse(deps: Deps, challenge: Challenge): Promise<never> {
  await recordChallengeFailure(deps.database, challenge);
  throw new AppError('INVALID_MFA_CODE');
}

async function openSession(
  deps: Deps,
  challenge: Challenge,
  failKey: string,
): Promise<{ sessionId: string; expires: number }> {
  // Whoever deletes the challenge opens the session: one password login gives one session at most.
  if (!(await takeChallenge(deps.database, challenge.idHash))) throw new AppError('MFA_CHALLENGE_EXPIRED');
  // A right answer is no failure: the account's hour keeps only the wrong ones.
  await releaseHit(deps.database, failKey, HOUR);
  const session = await createSession(deps.database, challenge.userId, deps.config);
  return { sessionId: session.id, expires: session.expires };
}

/** Second step of a login: a TOTP code, or one of the account's recovery codes (used up by this). */
export async function completeLoginWithCode(
  deps: Deps,
  client: Client,
  code: string,
): Promise<{ sessionId: string; expires: number }> {
  const { challenge, failKey } = await claimAnswer(deps, client);
  const compact = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(compact)) {
    if (!(await verifyActiveTotp(deps, challenge.userId, compact))) await refuse(deps, challenge);
    return openSession(deps, challenge, failKey);
  }
  if (!(await consumeRecoveryCode(deps.database, challenge.userId, compact))) await refuse(deps, challenge);
  const opened = await openSession(deps, challenge, failKey);
  // A recovery code is used when the usual factor is lost: tell the owner, in case it was not them.
  const [user] = await deps.database.db
    .select({ email: users.email, role: users.role })
    .from(users)
    .where(eq(users.id, challenge.userId));
  if (user) {
    const left = (await mfaStatus(deps.database, challenge.userId, user.role)).recovery_codes_left;
    await enqueueMail(deps.database.db, 'mfa_recovery_code_used', user.email, recoveryCodeUsedMail({ left }));
    wakeMailWorkers();
  }
  return opened;
}

export async function loginPasskeyOptions(deps: Deps, client: Client) {
  const challenge = await openChallenge(deps, client);
  return passkeyLoginOptions(deps, challenge);
}

export async function completeLoginWithPasskey(
  deps: Deps,
  client: Client,
  response: AuthenticationResponseJSON,
): Promise<{ sessionId: string; expires: number }> {
  const { challenge, failKey } = await claimAnswer(deps, client);
  if (!(await verifyPasskeyLogin(deps, challenge, response))) await refuse(deps, challenge);
  return openSession(deps, challenge, failKey);
}
