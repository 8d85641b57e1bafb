import { setTimeout as sleep } from 'node:timers/promises';
import type { RegisterBody } from '@ansim/shared/auth';
import { FIELD_MESSAGES_KO } from '@ansim/shared/messages.ko';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashPassword, isCommonPassword } from '../../lib/passwords.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { alreadyRegisteredMail, confirmEmailMail, resetPasswordMail } from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import { findCompanyByJoinCode, resolveCompany } from '../companies/companies.ts';
import { deleteUserSessions } from '../sessions/sessions.ts';
import { consumeUserToken, issueUserToken } from './user-tokens.ts';

type Deps = { database: Database; config: Config };

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function rejectCommonPassword(password: string): void {
  if (isCommonPassword(password)) {
    throw new AppError('VALIDATION_ERROR', { details: { password: FIELD_MESSAGES_KO.passwordTooCommon } });
  }
}

/**
 * "Mail me a link" requests do more work for an account that exists (a token and a mail) than for one that
 * does not, which a stopwatch could tell apart. Their answer waits at least this long either way.
 */
const MAIL_REQUEST_MIN_MS = 120;

async function takingAtLeast(ms: number, work: () => Promise<void>): Promise<void> {
  await Promise.all([work(), sleep(ms)]);
}

function link(config: Config, path: string, token: string): string {
  return `${config.PUBLIC_URL}${path}?token=${encodeURIComponent(token)}`;
}

/**
 * Creates an account and queues its confirmation mail. An address that already has an account gets a notice
 * mail instead, and the caller sees the same answer either way: registration never reveals who has an account.
 */
export async function registerUser({ database, config }: Deps, input: RegisterBody): Promise<void> {
  rejectCommonPassword(input.password);
  const joinCode = input.join_code?.trim() || null;
  if (joinCode && !(await findCompanyByJoinCode(database.db, joinCode))) {
    throw new AppError('VALIDATION_ERROR', { details: { join_code: '가입 코드가 올바르지 않습니다.' } });
  }
  const email = normalizeEmail(input.email);
  // Hash before looking the address up, so both paths spend the same time.
  const passwordHash = await hashPassword(input.password);
  await database.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(users)
      .values({ email, passwordHash, name: input.name.trim(), pendingJoinCode: joinCode })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    if (created) {
      const token = await issueUserToken(tx, created.id, 'confirm_email');
      await enqueueMail(
        tx,
        'confirm_email',
        email,
        confirmEmailMail({ name: input.name.trim(), url: link(config, '/register/confirm', token) }),
      );
      return;
    }
    const [existing] = await tx
      .select({ id: users.id, confirmed: users.emailConfirmedAt })
      .from(users)
      .where(eq(users.email, email));
    if (existing && !existing.confirmed) {
      const token = await issueUserToken(tx, existing.id, 'confirm_email');
      await enqueueMail(
        tx,
        'confirm_email',
        email,
        confirmEmailMail({ name: input.name.trim(), url: link(config, '/register/confirm', token) }),
      );
    } else if (existing) {
      await enqueueMail(
        tx,
        'already_registered',
        email,
        alreadyRegisteredMail({ url: `${config.PUBLIC_URL}/forgot-password` }),
      );
    }
  });
  wakeMailWorkers();
}

/** Re-sends the confirmation mail of an unconfirmed account; silently does nothing otherwise. */
export async function resendConfirmation({ database, config }: Deps, rawEmail: string): Promise<void> {
  const email = normalizeEmail(rawEmail);
  await takingAtLeast(MAIL_REQUEST_MIN_MS, () =>
    database.db.transaction(async (tx) => {
      const [user] = await tx
        .select({ id: users.id, name: users.name, confirmed: users.emailConfirmedAt })
        .from(users)
        .where(eq(users.email, email));
      if (!user || user.confirmed) return;
      const token = await issueUserToken(tx, user.id, 'confirm_email');
      await enqueueMail(
        tx,
        'confirm_email',
        email,
        confirmEmailMail({ name: user.name, url: link(config, '/register/confirm', token) }),
      );
    }),
  );
  wakeMailWorkers();
}

type Tx = Parameters<Parameters<Database['db']['transaction']>[0]>[0];

/**
 * Marks the address of the user a token was mailed to as confirmed — a followed link proves it — and places
 * the user in their company (join code given at registration, else the verified domain). `changes` are
 * applied in the same update.
 */
async function confirmAddress(
  tx: Tx,
  userId: string,
  changes: Partial<typeof users.$inferInsert> = {},
): Promise<string> {
  const [user] = await tx
    .select({
      email: users.email,
      joinCode: users.pendingJoinCode,
      companyId: users.companyId,
      confirmed: users.emailConfirmedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new AppError('INVALID_TOKEN');
  const confirming = user.confirmed
    ? {}
    : {
        emailConfirmedAt: new Date(),
        companyId: user.companyId ?? (await resolveCompany(tx, user.email, user.joinCode)),
        pendingJoinCode: null,
      };
  await tx
    .update(users)
    .set({ ...changes, ...confirming })
    .where(eq(users.id, userId));
  return user.email;
}

export async function confirmEmail({ database }: Deps, token: string): Promise<{ email: string }> {
  return database.db.transaction(async (tx) => {
    const userId = await consumeUserToken(tx, token, 'confirm_email');
    if (!userId) throw new AppError('INVALID_TOKEN');
    return { email: await confirmAddress(tx, userId) };
  });
}

export async function requestPasswordReset({ database, config }: Deps, rawEmail: string): Promise<void> {
  const email = normalizeEmail(rawEmail);
  await takingAtLeast(MAIL_REQUEST_MIN_MS, () =>
    database.db.transaction(async (tx) => {
      const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
      if (!user) return;
      const token = await issueUserToken(tx, user.id, 'reset_password');
      await enqueueMail(
        tx,
        'reset_password',
        email,
        resetPasswordMail({ url: link(config, '/reset-password', token) }),
      );
    }),
  );
  wakeMailWorkers();
}

/**
 * Sets a new password and ends every session of the account: whoever knew the old password is logged out.
 * Following a reset link proves the address, so it also confirms an unconfirmed one.
 */
export async function resetPassword({ database }: Deps, token: string, password: string): Promise<void> {
  rejectCommonPassword(password);
  const passwordHash = await hashPassword(password);
  await database.db.transaction(async (tx) => {
    const userId = await consumeUserToken(tx, token, 'reset_password');
    if (!userId) throw new AppError('INVALID_TOKEN');
    await confirmAddress(tx, userId, { passwordHash });
    await deleteUserSessions(tx, userId);
  });
}
