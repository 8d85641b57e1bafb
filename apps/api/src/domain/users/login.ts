import type { LoginBody } from '@ansim/shared/auth';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { companies, users } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { CaptchaVerifier } from '../../lib/captcha-verifier.ts';
import { burnPasswordCheck, verifyPassword } from '../../lib/passwords.ts';
import { hmacHex } from '../../lib/tokens.ts';
import { createChallenge } from '../mfa/challenges.ts';
import { hasSecondFactor } from '../mfa/factors.ts';
import { countHit, currentCount, rateLimited } from '../rate-limits/rate-limits.ts';
import { createSession, deleteSession } from '../sessions/sessions.ts';
import { normalizeEmail } from './accounts.ts';

const MINUTE = 60;
const HOUR = 3600;

interface LoginDeps {
  database: Database;
  config: Config;
  captcha: CaptchaVerifier;
}

/**
 * Logs in. The order matters: the per-IP limit first (cheap), then the captcha (so a bot pays before any
 * password is checked), then the per-account failure cap, then the password. Wrong e-mail and wrong password
 * give the same 400 after the same work. A pre-login session id is always discarded, never upgraded. An
 * account with a second factor gets no session yet: only a login challenge, which `domain/mfa/mfa-login.ts`
 * turns into a session once the second factor answers.
 */
export async function login(
  { database, config, captcha }: LoginDeps,
  input: LoginBody,
  client: { addressKey: string; previousSessionId?: string },
): Promise<{ sessionId: string; expires: number } | { mfaChallengeId: string }> {
  // The limiter keys on a keyed hash: the address itself is never written anywhere.
  const ipKey = `login-ip:${client.addressKey}`;
  if ((await countHit(database, ipKey, MINUTE)) > config.LOGIN_LIMIT_PER_IP_PER_MINUTE)
    throw rateLimited(MINUTE);

  await captcha.verify(input.captcha);

  const email = normalizeEmail(input.email);
  const accountKey = `login-fail:${hmacHex(config.SECRET_KEY, email)}`;
  if ((await currentCount(database, accountKey, HOUR)) >= config.LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR) {
    throw rateLimited(HOUR);
  }

  const [user] = await database.db
    .select({
      id: users.id,
      passwordHash: users.passwordHash,
      confirmed: users.emailConfirmedAt,
      companySuspendedAt: companies.suspendedAt,
    })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.email, email));
  let passwordOk = false;
  if (user) passwordOk = await verifyPassword(user.passwordHash, input.password);
  else await burnPasswordCheck(input.password);
  if (!user || !passwordOk) {
    await countHit(database, accountKey, HOUR);
    throw new AppError('INVALID_CREDENTIALS');
  }
  // Told only after the right password, so this answer cannot be used to probe which addresses exist.
  if (!user.confirmed) throw new AppError('EMAIL_NOT_CONFIRMED');
  if (user.companySuspendedAt) throw new AppError('COMPANY_SUSPENDED');

  if (client.previousSessionId) await deleteSession(database, client.previousSessionId);
  if (await hasSecondFactor(database.db, user.id))
    return { mfaChallengeId: await createChallenge(database, user.id, 'login') };
  const session = await createSession(database, user.id, config);
  return { sessionId: session.id, expires: session.expires };
}
