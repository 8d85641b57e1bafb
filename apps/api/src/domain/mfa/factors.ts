import { randomInt } from 'node:crypto';
import { isHandlerRole, RECOVERY_CODE_COUNT, type UserRole } from '@ansim/shared/constants';
import type { MfaStatus } from '@ansim/shared/contract/user';
import { FIELD_MESSAGES_KO } from '@ansim/shared/messages.ko';
import { and, count, eq, isNull, ne, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import { mfaPasskeys, mfaRecoveryCodes, mfaTotp, sessions, users } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { hmacHex, sha256Hex } from '../../lib/tokens.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { type MfaChange, mfaChangedMail } from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import { countHit, currentCount, rateLimited } from '../rate-limits/rate-limits.ts';

export type Deps = { database: Database; config: Config };
type Executor = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

const HOUR = 3600;

/**
 * Whether the user of this id has a second factor — a confirmed TOTP or at least one passkey — as an expression a
 * statement can carry: the session lookup reads it with the session (one statement per request, decision 0021).
 * `userId` is a value, or a column drizzle writes with its table's name (as it does in a join): a bare "id" would
 * name the factor table's own id inside the subqueries.
 */
export function secondFactorOf(userId: SQLWrapper): SQL<boolean> {
  return sql<boolean>`(
  exists (select 1 from ${mfaTotp} where ${mfaTotp.userId} = ${userId} and ${mfaTotp.confirmedAt} is not null)
  or exists (select 1 from ${mfaPasskeys} where ${mfaPasskeys.userId} = ${userId}))`.mapWith(Boolean);
}

/** True when the account has an active TOTP or at least one passkey. */
export async function hasSecondFactor(executor: Pick<Db, 'select'>, userId: string): Promise<boolean> {
  const [user] = await executor
    .select({ hasSecondFactor: secondFactorOf(sql`${userId}`) })
    .from(users)
    .where(eq(users.id, userId));
  return Boolean(user?.hasSecondFactor);
}

export async function mfaStatus(database: Database, userId: string, role: UserRole): Promise<MfaStatus> {
  const [[totp], [passkeys], [codes]] = await Promise.all([
    database.db.select({ confirmedAt: mfaTotp.confirmedAt }).from(mfaTotp).where(eq(mfaTotp.userId, userId)),
    database.db.select({ n: count() }).from(mfaPasskeys).where(eq(mfaPasskeys.userId, userId)),
    database.db
      .select({ n: count() })
      .from(mfaRecoveryCodes)
      .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt))),
  ]);
  return {
    totp: Boolean(totp?.confirmedAt),
    passkeys: Number(passkeys?.n ?? 0),
    recovery_codes_left: Number(codes?.n ?? 0),
    // Case handlers read case content, and the operator can hand a company to anyone: neither rests on a password.
    required: isHandlerRole(role) || role === 'operator',
  };
}

/**
 * Checks the current password before a change to the account's factors. Wrong answers count against the same
 * per-account limit as failed logins, so a stolen session cannot be used to guess the password.
 */
export async function requireCurrentPassword(
  { database, config }: Deps,
  userId: string,
  password: string,
): Promise<{ email: string; name: string }> {
  const [user] = await database.db
    .select({ email: users.email, name: users.name, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new AppError('UNAUTHORIZED');
  const accountKey = `login-fail:${hmacHex(config.SECRET_KEY, user.email)}`;
  if ((await currentCount(database, accountKey, HOUR)) >= config.LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR)
    throw rateLimited(HOUR);
  if (!(await verifyPassword(user.passwordHash, password))) {
    await countHit(database, accountKey, HOUR);
    throw new AppError('VALIDATION_ERROR', {
      details: { password: FIELD_MESSAGES_KO.currentPasswordWrong },
    });
  }
  return { email: user.email, name: user.name };
}

/** Ends every other session of the account: one opened with the password alone must not outlive a change. */
export async function endOtherSessions(
  executor: Pick<Db, 'delete'>,
  userId: string,
  keepIdHash: string,
): Promise<void> {
  await executor.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.idHash, keepIdHash)));
}

export async function mailMfaChange(executor: Executor, email: string, change: MfaChange): Promise<void> {
  await enqueueMail(executor, `mfa_${change}`, email, mfaChangedMail({ change }));
}

// Recovery codes: 16 characters from a 31-symbol alphabet without look-alikes (0/O, 1/I/L), about 79 bits
// of entropy. A code that strong cannot be found offline from its hash even without a slow hash, so a plain
// SHA-256 is enough — and it lets a login find the code with one indexed lookup instead of running argon2id
// against each of ten hashes. Online guessing is capped by the MFA throttle.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 16;

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code.match(/.{4}/g)!.join('-');
}

/** What a user typed, reduced to the form that was hashed: case, spaces and hyphens do not matter. */
export function normalizeRecoveryCode(input: string): string {
  return input.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** Replaces every recovery code of the account with ten new ones; returns them, the only time they exist. */
export async function replaceRecoveryCodes(
  executor: Pick<Db, 'insert' | 'delete'>,
  userId: string,
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await executor.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  await executor
    .insert(mfaRecoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: sha256Hex(normalizeRecoveryCode(code)) })));
  return codes;
}

/** Uses up one recovery code; false when it is unknown or was used before (the update is the check). */
export async function consumeRecoveryCode(
  database: Database,
  userId: string,
  input: string,
): Promise<boolean> {
  const normalized = normalizeRecoveryCode(input);
  if (normalized.length !== CODE_LENGTH) return false;
  const used = await database.db
    .update(mfaRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(mfaRecoveryCodes.userId, userId),
        eq(mfaRecoveryCodes.codeHash, sha256Hex(normalized)),
        isNull(mfaRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: mfaRecoveryCodes.id });
  return used.length === 1;
}

export async function regenerateRecoveryCodes(
  deps: Deps,
  userId: string,
  password: string,
): Promise<string[]> {
  const { email } = await requireCurrentPassword(deps, userId, password);
  const codes = await deps.database.db.transaction(async (tx) => {
    if (!(await hasSecondFactor(tx, userId))) throw new AppError('CONFLICT');
    const fresh = await replaceRecoveryCodes(tx, userId);
    await mailMfaChange(tx, email, 'recovery_regenerated');
    return fresh;
  });
  wakeMailWorkers();
  return codes;
}

/** After a factor was removed: with none left, the recovery codes go too (they recover nothing). */
export async function dropRecoveryCodesIfNoFactor(executor: Executor, userId: string): Promise<void> {
  if (!(await hasSecondFactor(executor, userId)))
    await executor.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
}
