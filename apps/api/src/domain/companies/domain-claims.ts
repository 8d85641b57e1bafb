import type { DomainClaimBody } from '@ansim/shared/company-settings';
import { isPublicMailDomain, PUBLIC_MAIL_DOMAIN_MESSAGE_KO } from '@ansim/shared/public-mail-domains';
import { and, asc, count, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { auditEvents, companies, companyDomainClaims, companyDomains } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { randomToken, sha256Hex } from '../../lib/tokens.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { domainClaimMail } from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { HandlerContext } from '../manager/access.ts';
import { AdminCommandError, addDomainIn, PublicMailDomainError } from './admin.ts';

type Deps = { database: Database; config: Config };

/** A proof link lives two days: long enough for an IT department to forward it, short enough to expire unused. */
const CLAIM_LIFETIME_MS = 48 * 3600 * 1000;
/** Each claim mails an outside address: a company may send only so many a day. */
const CLAIMS_PER_COMPANY_PER_DAY = 10;

export interface DomainsView {
  domains: { domain: string; added_at: string }[];
  pending: { id: string; domain: string; email: string; expires_at: string }[];
}

export async function listDomains(
  database: Database,
  companyId: string,
  now = new Date(),
): Promise<DomainsView> {
  const [domains, pending] = await Promise.all([
    database.db
      .select({ domain: companyDomains.domain, createdAt: companyDomains.createdAt })
      .from(companyDomains)
      .where(eq(companyDomains.companyId, companyId))
      .orderBy(asc(companyDomains.domain)),
    database.db
      .select({
        id: companyDomainClaims.id,
        domain: companyDomainClaims.domain,
        email: companyDomainClaims.email,
        expiresAt: companyDomainClaims.expiresAt,
      })
      .from(companyDomainClaims)
      .where(
        and(
          eq(companyDomainClaims.companyId, companyId),
          isNull(companyDomainClaims.verifiedAt),
          gt(companyDomainClaims.expiresAt, now),
        ),
      )
      .orderBy(desc(companyDomainClaims.createdAt)),
  ]);
  return {
    domains: domains.map((row) => ({ domain: row.domain, added_at: row.createdAt.toISOString() })),
    pending: pending.map((row) => ({
      id: row.id,
      domain: row.domain,
      email: row.email,
      expires_at: row.expiresAt.toISOString(),
    })),
  };
}

/**
 * Asks to add a mail domain: a link goes to an address at it, and only whoever reads that mailbox can prove the
 * company may speak for the domain. Until then nothing changes; a domain another company has is refused.
 */
export async function requestDomainClaim(
  { database, config }: Deps,
  admin: HandlerContext,
  body: DomainClaimBody,
  now = new Date(),
): Promise<{ id: string }> {
  const { domain } = body;
  const email = body.email.trim().toLowerCase();
  if (isPublicMailDomain(domain)) {
    // Refused, and still recorded: the operator's audit shows every claim, an attempt on naver.com above all.
    await recordAudit(database.db, {
      companyId: admin.companyId,
      actorId: admin.userId,
      action: 'company.domain',
      targetType: 'domain',
      targetId: domain,
      detail: { step: 'refused', domain, reason: 'public_mail_domain' },
    });
    throw new AppError('VALIDATION_ERROR', { details: { domain: PUBLIC_MAIL_DOMAIN_MESSAGE_KO } });
  }
  const id = await database.db.transaction(async (tx) => {
    const [owned] = await tx
      .select({ companyId: companyDomains.companyId })
      .from(companyDomains)
      .where(eq(companyDomains.domain, domain));
    if (owned) throw new AppError('DOMAIN_TAKEN');
    const [recent] = await tx
      .select({ n: count() })
      .from(companyDomainClaims)
      .where(
        and(
          eq(companyDomainClaims.companyId, admin.companyId),
          gt(companyDomainClaims.createdAt, new Date(now.getTime() - 24 * 3600 * 1000)),
        ),
      );
    if (Number(recent?.n ?? 0) >= CLAIMS_PER_COMPANY_PER_DAY) throw new AppError('RATE_LIMITED');
    const token = randomToken();
    const [claim] = await tx
      .insert(companyDomainClaims)
      .values({
        companyId: admin.companyId,
        domain,
        email,
        tokenHash: sha256Hex(token),
        requestedBy: admin.userId,
        expiresAt: new Date(now.getTime() + CLAIM_LIFETIME_MS),
      })
      .returning({ id: companyDomainClaims.id });
    const [company] = await tx
      .select({ name: companies.name })
      .from(companies)
      .where(eq(companies.id, admin.companyId));
    await enqueueMail(
      tx,
      'domain_claim',
      email,
      domainClaimMail({
        companyName: company!.name,
        domain,
        url: `${config.PUBLIC_URL}/domains/verify/${encodeURIComponent(token)}`,
      }),
    );
    await recordAudit(tx, {
      companyId: admin.companyId,
      actorId: admin.userId,
      action: 'company.domain',
      targetType: 'domain',
      targetId: domain,
      detail: { step: 'requested', domain },
    });
    return claim!.id;
  });
  wakeMailWorkers();
  return { id };
}

async function findClaim(database: Database, token: string, now: Date) {
  const [claim] = await database.db
    .select({
      id: companyDomainClaims.id,
      companyId: companyDomainClaims.companyId,
      companyName: companies.name,
      domain: companyDomainClaims.domain,
      requestedBy: companyDomainClaims.requestedBy,
      expiresAt: companyDomainClaims.expiresAt,
      verifiedAt: companyDomainClaims.verifiedAt,
    })
    .from(companyDomainClaims)
    .innerJoin(companies, eq(companies.id, companyDomainClaims.companyId))
    .where(eq(companyDomainClaims.tokenHash, sha256Hex(token)));
  if (!claim || claim.verifiedAt || claim.expiresAt <= now) throw new AppError('INVALID_TOKEN');
  return claim;
}

/** What the proof link is about, shown before the reader confirms (a GET never changes anything: mail scanners follow links). */
export async function describeDomainClaim(
  database: Database,
  token: string,
  now = new Date(),
): Promise<{ domain: string; company: { name: string } }> {
  const claim = await findClaim(database, token, now);
  return { domain: claim.domain, company: { name: claim.companyName } };
}

/**
 * The reader of the mailbox confirms: the domain becomes the company's and confirmed users on it who belong to
 * no company yet join it (as with `company:add-domain`). The token is the credential; it works once.
 */
export async function verifyDomainClaim(
  database: Database,
  token: string,
  now = new Date(),
): Promise<{ domain: string; company: { name: string } }> {
  const claim = await findClaim(database, token, now);
  await database.db.transaction(async (tx) => {
    const [used] = await tx
      .update(companyDomainClaims)
      .set({ verifiedAt: now })
      .where(and(eq(companyDomainClaims.id, claim.id), isNull(companyDomainClaims.verifiedAt)))
      .returning({ id: companyDomainClaims.id });
    if (!used) throw new AppError('INVALID_TOKEN');
    let attached: number;
    try {
      attached = await addDomainIn(tx, claim.companyId, claim.domain);
    } catch (error) {
      if (error instanceof PublicMailDomainError)
        throw new AppError('VALIDATION_ERROR', { details: { domain: PUBLIC_MAIL_DOMAIN_MESSAGE_KO } });
      if (error instanceof AdminCommandError) throw new AppError('DOMAIN_TAKEN');
      throw error;
    }
    await tx.insert(auditEvents).values({
      companyId: claim.companyId,
      actorId: claim.requestedBy,
      action: 'company.domain',
      targetType: 'domain',
      targetId: claim.domain,
      detail: { step: 'verified', domain: claim.domain, attached_users: attached },
    });
  });
  return { domain: claim.domain, company: { name: claim.companyName } };
}

/**
 * Removes a verified domain. The people who joined through it stay in the company (they are employees still);
 * only new addresses on it no longer join by themselves.
 */
export async function removeDomain(database: Database, admin: HandlerContext, domain: string): Promise<void> {
  await database.db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(companyDomains)
      .where(and(eq(companyDomains.companyId, admin.companyId), eq(companyDomains.domain, domain)))
      .returning({ domain: companyDomains.domain });
    if (!removed) throw new AppError('NOT_FOUND');
    await recordAudit(tx, {
      companyId: admin.companyId,
      actorId: admin.userId,
      action: 'company.domain',
      targetType: 'domain',
      targetId: removed.domain,
      detail: { step: 'removed', domain: removed.domain },
    });
  });
}
