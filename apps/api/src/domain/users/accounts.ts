import { setTimeout as sleep } from 'node:timers/promises';
import type { RegisterBody } from '@ansim/shared/auth';
import { FIELD_MESSAGES_KO } from '@ansim/shared/messages.ko';
import { eq, isNull } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashPassword, isCommonPassword } from '../../lib/passwords.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import {
  alreadyRegisteredMail,
  confirmEmailMail,
  joinCodeUnknownMail,
  resetPasswordMail,
} from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import { findCompanyByJoinCode, resolveCompany } from '../companies/companies.ts';
import { deleteUserSessions } from '../sessions/sessions.ts';
import { throttleAccountRequest } from './account-throttle.ts';
import { consumeUserToken, issueUserToken } from './user-tokens.ts';

type Deps = { database: Database; config: Config };

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function rejectCommonPassword(password: string): void {
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
 * Creates an account and queues its confirmation mail, and always answers the same: registration never
 * reveals who has an account, nor whether a join code is right.
 * - An address with a confirmed account gets a notice mail instead.
 * - An unconfirmed address is taken over by the latest registration: its password, name and join code are
 *   replaced and only the new mail's link confirms it (earlier links die). Otherwise whoever registered
 *   someone else's address first would keep a password on the account its owner later confirms.
 * - A join code no company has creates nothing; the address is told by mail. The caller sees the usual answer
 *   after the same work, so codes cannot be guessed from the answers.
 */
export async function registerUser(
  { database, config }: Deps,
  input: RegisterBody,
  client: { addressKey: string },
): Promise<void> {
  const email = normalizeEmail(input.email);
  const joinCode = input.join_code?.trim() || null;
  await throttleAccountRequest({ database, config }, client, email, { joinCode: joinCode !== null });
  rejectCommonPassword(input.password);
  const name = input.name.trim();
  // Hash before anything is looked up, so every path spends the same time.
  const passwordHash = await hashPassword(input.password);
  const joinCodeKnown = joinCode === null || (await findCompanyByJoinCode(database.db, joinCode)) !== null;
  await database.db.transaction(async (tx) => {
    if (!joinCodeKnown) {
      const [existing] = await tx
        .select({ confirmed: users.emailConfirmedAt })
        .from(users)
        .where(eq(users.email, email));
      if (existing?.confirmed) await mailAlreadyRegistered(tx, config, email);
      else
        await enqueueMail(
          tx,
          'join_code_unknown',
          email,
          joinCodeUnknownMail({ url: `${config.PUBLIC_URL}/register` }),
        );
      return;
    }
    // New address: a new row. Unconfirmed address: the same row, taken over. Confirmed: no row returned.
    const [account] = await tx
      .insert(users)
      .values({ email, passwordHash, name, pendingJoinCode: joinCode })
      .onConflictDoUpdate({
        target: users.email,
        set: { passwordHash, name, pendingJoinCode: joinCode },
        setWhere: isNull(users.emailConfirmedAt),
      })
      .returning({ id: users.id });
    if (!account) {
      await mailAlreadyRegistered(tx, config, email);
      return;
    }
    const token = await issueUserToken(tx, account.id, 'confirm_email');
    await enqueueMail(
      tx,
      'confirm_email',
      email,
      confirmEmailMail({ name, url: link(config, '/register/confirm', token) }),
    );
  });
  wakeMailWorkers();
}

async function mailAlreadyRegistered(tx: Tx, config: Config, email: string): Promise<void> {
  await enqueueMail(
    tx,
    'already_registered',
    email,
    alreadyRegisteredMail({ url: `${config.PUBLIC_URL}/forgot-password` }),
  );
}

/** Re-sends the confirmation mail of an unconfirmed account; silently does nothing otherwise. */
export async function resendConfirmation(
  { database, config }: Deps,
  rawEmail: string,
  client: { addressKey: string },
): Promise<void> {
  const email = normalizeEmail(rawEmail);
  await throttleAccountRequest({ database, config }, client, email);
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

export async function requestPasswordReset(
  { database, config }: Deps,
  rawEmail: string,
  client: { addressKey: string },
): Promise<void> {
  const email = normalizeEmail(rawEmail);
  await throttleAccountRequest({ database, config }, client, email);
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
