import { isPublicMailDomain } from '@ansim/shared/public-mail-domains';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { normalizeEmail } from '../users/accounts.ts';

/**
 * Refuses an anonymous report's notice address that the employer could read or tie to a person: one at any
 * company's verified mail domain (or a subdomain of one: the same mail servers), or the address of an account.
 * Both checks run in one query and fail with one code and one message, so the answer tells nobody whether an
 * address has an account here (docs/threat-model.md).
 */
export async function assertPrivateContactEmail(database: Database, rawEmail: string): Promise<void> {
  const email = normalizeEmail(rawEmail);
  // A public mail domain is nobody's company, even should a company hold it from before the list refused it.
  const domain = isPublicMailDomain(email.slice(email.lastIndexOf('@') + 1))
    ? ''
    : email.slice(email.lastIndexOf('@') + 1);
  const [row] = await database.query<{ taken: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM users WHERE email = $1)
         OR EXISTS (SELECT 1 FROM company_domains WHERE domain = $2 OR right($2, length(domain) + 1) = '.' || domain)
         AS taken`,
    [email, domain],
  );
  if (row?.taken) throw new AppError('CONTACT_EMAIL_NOT_PRIVATE');
}
