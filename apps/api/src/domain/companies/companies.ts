import { isPublicMailDomain } from '@ansim/shared/public-mail-domains';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { companies, companyDomains } from '../../db/schema.ts';

type Reader = Pick<Db, 'select'>;

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

export function normalizeDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/^@/, '');
}

export async function findCompanyByJoinCode(db: Reader, joinCode: string): Promise<string | null> {
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.joinCode, joinCode.trim()))
    .limit(1);
  return row?.id ?? null;
}

/**
 * The company whose verified domain the address is at. Never for a public mail service's address, even should
 * a row for one exist (added before the list refused them): a naver.com mailbox says nothing about an employer.
 */
export async function findCompanyByDomain(db: Reader, email: string): Promise<string | null> {
  if (isPublicMailDomain(emailDomain(email))) return null;
  const [row] = await db
    .select({ id: companyDomains.companyId })
    .from(companyDomains)
    .where(eq(companyDomains.domain, emailDomain(email)))
    .limit(1);
  return row?.id ?? null;
}

/**
 * The company a confirmed address belongs to: the join code given at registration wins, else the verified
 * domain of the address.
 */
export async function resolveCompany(
  db: Reader,
  email: string,
  joinCode: string | null,
): Promise<string | null> {
  if (joinCode) {
    const byCode = await findCompanyByJoinCode(db, joinCode);
    if (byCode) return byCode;
  }
  return findCompanyByDomain(db, email);
}

export async function getCompanyName(db: Reader, id: string): Promise<string | null> {
  const [row] = await db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, id))
    .limit(1);
  return row?.name ?? null;
}
