import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { findCompanyByJoinCode } from '../companies/companies.ts';
import { throttleJoinCodeAttempt } from './account-throttle.ts';

/**
 * A member whose address matched no company's domain joins one with the code the company handed out (the
 * same codes registration accepts). Every attempt counts against the address's join-code limit before
 * anything is looked up; an account already in a company cannot change it this way, nor probe codes.
 */
export async function joinCompany(
  { database, config }: { database: Database; config: Config },
  userId: string,
  joinCode: string,
  client: { addressKey: string },
): Promise<void> {
  await throttleJoinCodeAttempt({ database, config }, client);
  await database.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ companyId: users.companyId, role: users.role })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!user) throw new AppError('USER_NOT_FOUND');
    // The platform's operator belongs to no company, and must never become one company's employee.
    if (user.role === 'operator') throw new AppError('IN_ANOTHER_COMPANY');
    if (user.companyId) throw new AppError('ALREADY_IN_COMPANY');
    const companyId = await findCompanyByJoinCode(tx, joinCode);
    if (!companyId) throw new AppError('JOIN_CODE_UNKNOWN');
    await tx.update(users).set({ companyId, pendingJoinCode: null }).where(eq(users.id, userId));
  });
}
