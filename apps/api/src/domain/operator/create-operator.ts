import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { randomToken } from '../../lib/tokens.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { operatorWelcomeMail } from '../../mail/templates.ts';
import { AdminCommandError } from '../companies/admin.ts';
import { normalizeEmail } from '../users/accounts.ts';
import { issueUserToken } from '../users/user-tokens.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Creates the platform's operator (no company) and mails a set-password link to the existing reset page. The
 * account starts with a random password nobody knows; the address is taken as confirmed because whoever runs
 * the server named it (and the reset link proves it anyway). Run again for an operator, it mails a new link.
 */
export async function createOperator(
  { database, config }: { database: Database; config: Config },
  input: { email: string; name?: string },
): Promise<{ email: string; created: boolean }> {
  const email = normalizeEmail(input.email);
  if (!EMAIL.test(email) || email.length > 254)
    throw new AdminCommandError(`"${input.email}" is not an e-mail address.`);
  const passwordHash = await hashPassword(randomToken());
  return database.db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(eq(users.email, email));
    if (existing && existing.role !== 'operator')
      throw new AdminCommandError(
        `${email} already has an account (${existing.role}); an operator needs an address of its own.`,
      );
    const userId =
      existing?.id ??
      (
        await tx
          .insert(users)
          .values({
            email,
            passwordHash,
            name: input.name?.trim() || '운영자',
            role: 'operator',
            emailConfirmedAt: new Date(),
          })
          .returning({ id: users.id })
      )[0]!.id;
    const token = await issueUserToken(tx, userId, 'reset_password');
    await enqueueMail(
      tx,
      'operator_welcome',
      email,
      operatorWelcomeMail({ url: `${config.PUBLIC_URL}/reset-password?token=${encodeURIComponent(token)}` }),
    );
    return { email, created: !existing };
  });
}
