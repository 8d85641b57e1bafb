import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { mfaTotp, users } from '../../db/schema.ts';
import { openText, sealText } from '../../encryption/codec.ts';
import { AppError } from '../../lib/app-error.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import {
  consumeRecoveryCode,
  type Deps,
  dropRecoveryCodesIfNoFactor,
  endOtherSessions,
  mailMfaChange,
  replaceRecoveryCodes,
  requireCurrentPassword,
} from './factors.ts';

const ISSUER = '안심신고';
const PERIOD = 30;
/** One step either side: a phone clock up to 30 s off still works. */
const WINDOW = 1;

function totpFor(secret: string, label: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/**
 * Starts (or restarts) TOTP enrolment: a new secret, stored sealed and not yet active. An account whose TOTP
 * is already active must remove it first.
 */
export async function startTotpEnrolment(
  { database }: Deps,
  userId: string,
): Promise<{ secret: string; otpauth_uri: string; qr_data_url: string }> {
  const [existing] = await database.db
    .select({ confirmedAt: mfaTotp.confirmedAt })
    .from(mfaTotp)
    .where(eq(mfaTotp.userId, userId));
  if (existing?.confirmedAt) throw new AppError('CONFLICT');
  const [user] = await database.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('UNAUTHORIZED');
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  const sealed = await sealText(database, null, 'mfa_totp.secret', userId, secret);
  await database.db
    .insert(mfaTotp)
    .values({ userId, secret: sealed })
    .onConflictDoUpdate({
      target: mfaTotp.userId,
      set: { secret: sealed, lastUsedStep: null, createdAt: new Date() },
      // Never overwrite an active secret, even if it was confirmed between the check above and here.
      setWhere: isNull(mfaTotp.confirmedAt),
    });
  const uri = totpFor(secret, user.email).toString();
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return {
    secret,
    otpauth_uri: uri,
    qr_data_url: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
  };
}

/**
 * Accepts a TOTP code once: the code's time step must be newer than the last step accepted, and the update
 * that records it is the check, so two requests racing with one code cannot both pass.
 */
async function useTotpCode(
  { database }: Deps,
  userId: string,
  code: string,
  state: 'pending' | 'active',
): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const [row] = await database.db
    .select({ secret: mfaTotp.secret, confirmedAt: mfaTotp.confirmedAt })
    .from(mfaTotp)
    .where(eq(mfaTotp.userId, userId));
  if (!row || (state === 'active') !== Boolean(row.confirmedAt)) return false;
  const secret = await openText(database, 'mfa_totp.secret', userId, row.secret);
  const now = Date.now();
  const delta = totpFor(secret, '').validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) return false;
  const step = Math.floor(now / 1000 / PERIOD) + delta;
  const updated = await database.db
    .update(mfaTotp)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(mfaTotp.userId, userId),
        state === 'active' ? isNotNull(mfaTotp.confirmedAt) : isNull(mfaTotp.confirmedAt),
        or(isNull(mfaTotp.lastUsedStep), lt(mfaTotp.lastUsedStep, step)),
      ),
    )
    .returning({ userId: mfaTotp.userId });
  return updated.length === 1;
}

export function verifyActiveTotp(deps: Deps, userId: string, code: string): Promise<boolean> {
  return useTotpCode(deps, userId, code, 'active');
}

/**
 * Makes the pending TOTP active once the user proves, with a code, that their app holds the secret. Returns
 * ten new recovery codes (any older ones die), ends the account's other sessions and mails the account.
 */
export async function confirmTotp(
  deps: Deps,
  session: { userId: string; idHash: string },
  input: { code: string; password: string },
): Promise<string[]> {
  const { email } = await requireCurrentPassword(deps, session.userId, input.password);
  if (!(await useTotpCode(deps, session.userId, input.code, 'pending')))
    throw new AppError('INVALID_MFA_CODE');
  const codes = await deps.database.db.transaction(async (tx) => {
    const confirmed = await tx
      .update(mfaTotp)
      .set({ confirmedAt: new Date() })
      .where(and(eq(mfaTotp.userId, session.userId), isNull(mfaTotp.confirmedAt)))
      .returning({ userId: mfaTotp.userId });
    if (confirmed.length !== 1) throw new AppError('CONFLICT');
    const fresh = await replaceRecoveryCodes(tx, session.userId);
    await endOtherSessions(tx, session.userId, session.idHash);
    await mailMfaChange(tx, email, 'totp_enabled');
    return fresh;
  });
  wakeMailWorkers();
  return codes;
}

/** Removes an active TOTP; needs the password and a current code (or a recovery code, for a lost phone). */
export async function removeTotp(
  deps: Deps,
  userId: string,
  input: { code: string; password: string },
): Promise<void> {
  const { email } = await requireCurrentPassword(deps, userId, input.password);
  const [row] = await deps.database.db
    .select({ confirmedAt: mfaTotp.confirmedAt })
    .from(mfaTotp)
    .where(eq(mfaTotp.userId, userId));
  if (!row?.confirmedAt) throw new AppError('NOT_FOUND');
  const proven =
    (await verifyActiveTotp(deps, userId, input.code)) ||
    (await consumeRecoveryCode(deps.database, userId, input.code));
  if (!proven) throw new AppError('INVALID_MFA_CODE');
  await deps.database.db.transaction(async (tx) => {
    await tx.delete(mfaTotp).where(eq(mfaTotp.userId, userId));
    await dropRecoveryCodesIfNoFactor(tx, userId);
    await mailMfaChange(tx, email, 'totp_removed');
  });
  wakeMailWorkers();
}
