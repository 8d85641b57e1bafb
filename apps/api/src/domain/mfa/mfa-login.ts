import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { hmacHex } from '../../lib/tokens.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { recoveryCodeUsedMail } from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import { countHit, currentCount, rateLimited } from '../rate-limits/rate-limits.ts';
import { createSession } from '../sessions/sessions.ts';
import { type Challenge, findChallenge, recordChallengeFailure, takeChallenge } from './challenges.ts';
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

/** The checks every second-factor answer passes first: per-IP rate, a live challenge, the account's cap. */
async function openChallenge(deps: Deps, client: Client): Promise<{ challenge: Challenge; failKey: string }> {
  const { database, config } = deps;
  const ipKey = `mfa-ip:${client.addressKey}`;
  if ((await countHit(database, ipKey, MINUTE)) > config.LOGIN_LIMIT_PER_IP_PER_MINUTE)
    throw rateLimited(MINUTE);
  const challenge = await findChallenge(database, client.challengeId, 'login');
  if (!challenge) throw new AppError('MFA_CHALLENGE_EXPIRED');
  const failKey = `mfa-fail:${hmacHex(config.SECRET_KEY, challenge.userId)}`;
  if ((await currentCount(database, failKey, HOUR)) >= MFA_FAILURES_PER_ACCOUNT_PER_HOUR)
    throw rateLimited(HOUR);
  return { challenge, failKey };
}

async function refuse(deps: Deps, challenge: Challenge, failKey: string): Promise<never> {
  await countHit(deps.database, failKey, HOUR);
  await recordChallengeFailure(deps.database, challenge.idHash);
  throw new AppError('INVALID_MFA_CODE');
}

async function openSession(
  deps: Deps,
  challenge: Challenge,
): Promise<{ sessionId: string; expires: number }> {
  // Whoever deletes the challenge opens the session: one password login gives one session at most.
  if (!(await takeChallenge(deps.database, challenge.idHash))) throw new AppError('MFA_CHALLENGE_EXPIRED');
  const session = await createSession(deps.database, challenge.userId, deps.config);
  return { sessionId: session.id, expires: session.expires };
}

/** Second step of a login: a TOTP code, or one of the account's recovery codes (used up by this). */
export async function completeLoginWithCode(
  deps: Deps,
  client: Client,
  code: string,
): Promise<{ sessionId: string; expires: number }> {
  const { challenge, failKey } = await openChallenge(deps, client);
  const compact = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(compact)) {
    if (!(await verifyActiveTotp(deps, challenge.userId, compact))) await refuse(deps, challenge, failKey);
    return openSession(deps, challenge);
  }
  if (!(await consumeRecoveryCode(deps.database, challenge.userId, compact)))
    await refuse(deps, challenge, failKey);
  const opened = await openSession(deps, challenge);
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
  const { challenge } = await openChallenge(deps, client);
  return passkeyLoginOptions(deps, challenge);
}

export async function completeLoginWithPasskey(
  deps: Deps,
  client: Client,
  response: AuthenticationResponseJSON,
): Promise<{ sessionId: string; expires: number }> {
  const { challenge, failKey } = await openChallenge(deps, client);
  if (!(await verifyPasskeyLogin(deps, challenge, response))) await refuse(deps, challenge, failKey);
  return openSession(deps, challenge);
}
