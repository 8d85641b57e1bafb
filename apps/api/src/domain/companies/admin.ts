import { randomInt } from 'node:crypto';
import { COMPANY_ROLES, type CompanyRole, isHandlerRole } from '@ansim/shared/constants';
import { isPublicMailDomain } from '@ansim/shared/public-mail-domains';
import { and, count, eq, isNotNull, isNull, like } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { companies, companyDomains, users } from '../../db/schema.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { excludeHandlerFromAccusedCases } from '../manager/conflicts.ts';
import { normalizeDomain } from './companies.ts';

/**
 * Operator commands (the admin CLI): the platform's operators, not its users, decide which companies exist and
 * who manages them, so none of this is reachable through the public API.
 */
export class AdminCommandError extends Error {}

/** The domain is another company's already: the console answers it as a conflict on the field. */
export class DomainTakenError extends AdminCommandError {
  constructor(
    readonly domain: string,
    owner: { id: string; name: string },
  ) {
    super(`The domain ${domain} already belongs to ${owner.name} (${owner.id}).`);
  }
}

/** A public mail service's domain (naver.com, gmail.com…): a mailbox there proves nothing about an employer. */
export class PublicMailDomainError extends AdminCommandError {
  constructor(readonly domain: string) {
    super(
      `${domain} is a public mail service's domain: anyone can have an address there, so it cannot be a company's.`,
    );
  }
}

export type Role = CompanyRole;

export interface CompanySummary {
  id: string;
  name: string;
  domains: string[];
  joinCode: string | null;
  members: number;
  managers: number;
}

// No 0/O, 1/I/L: a join code is read aloud and typed from paper.
const JOIN_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DOMAIN = /^(?=.{4,253}$)(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}\p{N}-]{2,63}$/u;

/** 12 characters of a 31-letter alphabet, about 59 bits: joining a company by guessing its code is hopeless. */
export function generateJoinCode(): string {
  const chars = Array.from({ length: 12 }, () => JOIN_CODE_ALPHABET[randomInt(JOIN_CODE_ALPHABET.length)]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8).join('')}`;
}

function validDomain(input: string): string {
  const domain = normalizeDomain(input);
  if (!DOMAIN.test(domain))
    throw new AdminCommandError(`"${input}" is not an e-mail domain (e.g. example.co.kr).`);
  if (isPublicMailDomain(domain)) throw new PublicMailDomainError(domain);
  return domain;
}

function validJoinCode(input: string): string {
  const code = input.trim();
  if (code.length < 6 || code.length > 64 || /\s/.test(code)) {
    throw new AdminCommandError('A join code has 6 to 64 characters and no spaces.');
  }
  return code;
}

async function assertDomainFree(db: Pick<Db, 'select'>, domain: string): Promise<void> {
  const [owner] = await db
    .select({ id: companies.id, name: companies.name })
    .from(companyDomains)
    .innerJoin(companies, eq(companies.id, companyDomains.companyId))
    .where(eq(companyDomains.domain, domain))
    .limit(1);
  if (owner) throw new DomainTakenError(domain, owner);
}

/**
 * A domain is verified for its company, so confirmed users on it who belong to no company yet join it now,
 * as they would have had they confirmed their e-mail after the domain was added.
 */
async function attachDomainUsers(tx: Pick<Db, 'update'>, companyId: string, domain: string): Promise<number> {
  const attached = await tx
    .update(users)
    .set({ companyId })
    .where(and(isNull(users.companyId), isNotNull(users.emailConfirmedAt), like(users.email, `%@${domain}`)))
    .returning({ id: users.id });
  return attached.length;
}

type Tx = Parameters<Parameters<Database['db']['transaction']>[0]>[0];

/**
 * Creates a company with its verified domains. `alsoInTransaction` runs in the same transaction once the company
 * exists (the operator console invites the first admin there), so a failure leaves no half-made company.
 */
export async function createCompany<T = void>(
  database: Database,
  input: { name: string; domain?: string; domains?: string[]; joinCode?: string },
  alsoInTransaction?: (tx: Tx, company: { id: string; name: string }) => Promise<T>,
): Promise<{
  id: string;
  name: string;
  domain: string | null;
  domains: string[];
  joinCode: string;
  attachedUsers: number;
  also: T | undefined;
}> {
  const name = input.name.trim();
  if (!name || name.length > 200) throw new AdminCommandError('A company name has 1 to 200 characters.');
  const domains = [
    ...new Set(
      [...(input.domain === undefined ? [] : [input.domain]), ...(input.domains ?? [])].map(validDomain),
    ),
  ];
  const joinCode = input.joinCode === undefined ? generateJoinCode() : validJoinCode(input.joinCode);
  return database.db.transaction(async (tx) => {
    for (const domain of domains) await assertDomainFree(tx, domain);
    const [taken] = await tx
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.joinCode, joinCode))
      .limit(1);
    if (taken) throw new AdminCommandError('That join code is already used by another company.');
    const [company] = await tx.insert(companies).values({ name, joinCode }).returning({ id: companies.id });
    let attachedUsers = 0;
    for (const domain of domains) {
      await tx.insert(companyDomains).values({ domain, companyId: company!.id });
      attachedUsers += await attachDomainUsers(tx, company!.id, domain);
    }
    const also = alsoInTransaction ? await alsoInTransaction(tx, { id: company!.id, name }) : undefined;
    return { id: company!.id, name, domain: domains[0] ?? null, domains, joinCode, attachedUsers, also };
  });
}

export async function listCompanies(database: Database): Promise<CompanySummary[]> {
  const { db } = database;
  const rows = await db
    .select({ id: companies.id, name: companies.name, joinCode: companies.joinCode })
    .from(companies)
    .orderBy(companies.createdAt, companies.name);
  const domains = await db
    .select({ companyId: companyDomains.companyId, domain: companyDomains.domain })
    .from(companyDomains)
    .orderBy(companyDomains.domain);
  const counts = await db
    .select({ companyId: users.companyId, role: users.role, count: count() })
    .from(users)
    .where(isNotNull(users.companyId))
    .groupBy(users.companyId, users.role);
  return rows.map((row) => ({
    ...row,
    domains: domains.filter((d) => d.companyId === row.id).map((d) => d.domain),
    members: Number(counts.find((c) => c.companyId === row.id && c.role === 'member')?.count ?? 0),
    managers: Number(counts.find((c) => c.companyId === row.id && c.role === 'manager')?.count ?? 0),
  }));
}

async function findCompany(db: Pick<Db, 'select'>, companyId: string) {
  const [company] = UUID.test(companyId)
    ? await db
        .select({ id: companies.id, name: companies.name })
        .from(companies)
        .where(eq(companies.id, companyId))
        .limit(1)
    : [];
  if (!company) throw new AdminCommandError(`No company has the id ${companyId} (see company:list).`);
  return company;
}

export async function addCompanyDomain(
  database: Database,
  input: { companyId: string; domain: string },
): Promise<{ companyId: string; companyName: string; domain: string; attachedUsers: number }> {
  const domain = validDomain(input.domain);
  return database.db.transaction(async (tx) => {
    const company = await findCompany(tx, input.companyId.trim());
    const attachedUsers = await addDomainIn(tx, company.id, domain);
    // The operator's audit shows every domain a company gained, the CLI's too (no logged-in actor).
    await recordAudit(tx, {
      companyId: company.id,
      actorId: null,
      action: 'company.domain',
      targetType: 'domain',
      targetId: domain,
      detail: { step: 'added', domain, via: 'cli', attached_users: attachedUsers },
    });
    return { companyId: company.id, companyName: company.name, domain, attachedUsers };
  });
}

/**
 * Adds a verified domain to a company inside the caller's transaction and attaches the confirmed users on it
 * who belong to no company yet; the CLI and the admin's proven domain claim (settings page) both come here.
 * Throws AdminCommandError when another company (or this one) has the domain already.
 */
export async function addDomainIn(
  tx: Pick<Db, 'select' | 'insert' | 'update'>,
  companyId: string,
  domain: string,
): Promise<number> {
  if (isPublicMailDomain(domain)) throw new PublicMailDomainError(domain);
  await assertDomainFree(tx, domain);
  await tx.insert(companyDomains).values({ domain, companyId });
  return attachDomainUsers(tx, companyId, domain);
}

export function parseRole(input: string): Role {
  if ((COMPANY_ROLES as readonly string[]).includes(input)) return input as CompanyRole;
  throw new AdminCommandError(`The role must be one of ${COMPANY_ROLES.join(', ')}, not "${input}".`);
}

export async function setUserRole(
  database: Database,
  input: { email: string; role: string },
): Promise<{ email: string; role: Role; previousRole: Role; companyName: string | null }> {
  const role = parseRole(input.role);
  const email = input.email.trim().toLowerCase();
  const [user] = await database.db
    .select({
      id: users.id,
      role: users.role,
      name: users.name,
      companyId: users.companyId,
      companyName: companies.name,
    })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.email, email))
    .limit(1);
  if (!user) throw new AdminCommandError(`No user has the e-mail ${email}.`);
  // A handler sees the reports of their company; with no company the role would grant nothing but confusion.
  if (role !== 'member' && !user.companyName) {
    throw new AdminCommandError(
      `${email} belongs to no company yet. Add the e-mail's domain to a company (company:add-domain) or have ` +
        'the user register with the join code, then set the role.',
    );
  }
  if (user.role === 'operator')
    throw new AdminCommandError(`${email} is the platform's operator, who belongs to no company.`);
  await database.db.update(users).set({ role }).where(eq(users.id, user.id));
  if (isHandlerRole(role) && user.companyId)
    await excludeHandlerFromAccusedCases(database, {
      companyId: user.companyId,
      userId: user.id,
      name: user.name,
      email,
    });
  return { email, role, previousRole: user.role as CompanyRole, companyName: user.companyName };
}
