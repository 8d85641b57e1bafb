import type { OperatorCompany, PlatformHealth } from '@ansim/shared/contract/operator';
import { PUBLIC_MAIL_DOMAIN_MESSAGE_KO } from '@ansim/shared/public-mail-domains';
import { and, count, eq, inArray, isNotNull, isNull, min, sql, sum } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import {
  companies,
  companyDomains,
  files,
  mailOutbox,
  reportStatCounts,
  sessions,
  users,
} from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { createCompany, DomainTakenError, PublicMailDomainError } from '../companies/admin.ts';
import { createCompanyInvitation } from '../companies/company-invitations.ts';

type Deps = { database: Database; config: Config };

const OPEN_STATUSES = ['received', 'investigating', 'action_taken'] as const;

/**
 * A new client company, with its domains, and an invitation of its first admin, all in one transaction: the
 * operator never ends up with a company nobody can run.
 */
export async function createOperatorCompany(
  deps: Deps,
  operatorId: string,
  input: { name: string; domains: string[]; admin_email: string },
): Promise<{ id: string; join_code: string }> {
  try {
    const company = await createCompany(
      deps.database,
      { name: input.name, domains: input.domains },
      async (tx, created) => {
        await recordAudit(tx, {
          companyId: created.id,
          actorId: operatorId,
          action: 'company.create',
          targetType: 'company',
          targetId: created.id,
          detail: { name: created.name, domains: input.domains },
        });
        await createCompanyInvitation(
          deps,
          { companyId: created.id, email: input.admin_email, role: 'admin', invitedBy: operatorId },
          tx,
        );
      },
    );
    return { id: company.id, join_code: company.joinCode };
  } catch (error) {
    if (error instanceof DomainTakenError)
      throw new AppError('CONFLICT', {
        message: `${error.domain} 도메인은 이미 다른 회사에 등록되어 있습니다.`,
        details: { domains: `${error.domain} 도메인은 이미 다른 회사에 등록되어 있습니다.` },
      });
    if (error instanceof PublicMailDomainError)
      throw new AppError('VALIDATION_ERROR', { details: { domains: PUBLIC_MAIL_DOMAIN_MESSAGE_KO } });
    throw error;
  }
}

/** Every company with head counts per role and case counts: no case, no reporter, no name of anyone. */
export async function listOperatorCompanies(database: Database): Promise<OperatorCompany[]> {
  const { db } = database;
  const rows = await db
    .select({
      id: companies.id,
      name: companies.name,
      joinCode: companies.joinCode,
      suspendedAt: companies.suspendedAt,
      createdAt: companies.createdAt,
    })
    .from(companies)
    .orderBy(companies.createdAt, companies.name);
  const domains = await db
    .select({ companyId: companyDomains.companyId, domain: companyDomains.domain })
    .from(companyDomains)
    .orderBy(companyDomains.domain);
  const people = await db
    .select({ companyId: users.companyId, role: users.role, count: count() })
    .from(users)
    .where(isNotNull(users.companyId))
    .groupBy(users.companyId, users.role);
  // Off the statistics' summary rows, which the triggers keep in every write's transaction (decision 0012): the
  // cost grows with companies and months, not cases. Counting `reports` here read every case of the platform
  // on each visit (175 ms at 100,000 cases, and ten times that at a million).
  const cases = await db
    .select({
      companyId: reportStatCounts.companyId,
      total: sql<number>`coalesce(sum(${reportStatCounts.count}) filter (where ${reportStatCounts.dimension} = 'total'), 0)`,
      open: sql<number>`coalesce(sum(${reportStatCounts.count}) filter (where ${reportStatCounts.dimension} = 'status' and ${inArray(reportStatCounts.value, [...OPEN_STATUSES])}), 0)`,
    })
    .from(reportStatCounts)
    .where(inArray(reportStatCounts.dimension, ['total', 'status']))
    .groupBy(reportStatCounts.companyId);
  const headCount = (companyId: string, role: string) =>
    Number(people.find((p) => p.companyId === companyId && p.role === role)?.count ?? 0);
  return rows.map((row) => {
    const caseCount = cases.find((c) => c.companyId === row.id);
    return {
      id: row.id,
      name: row.name,
      domains: domains.filter((d) => d.companyId === row.id).map((d) => d.domain),
      join_code: row.joinCode,
      users: {
        member: headCount(row.id, 'member'),
        investigator: headCount(row.id, 'investigator'),
        manager: headCount(row.id, 'manager'),
        admin: headCount(row.id, 'admin'),
      },
      cases: { total: Number(caseCount?.total ?? 0), open: Number(caseCount?.open ?? 0) },
      suspended_at: row.suspendedAt?.toISOString() ?? null,
      created_at: row.createdAt.toISOString(),
    };
  });
}

/**
 * Suspends or resumes a company. Suspended, its users cannot log in and their sessions end at once (and
 * `findSession` refuses any that slipped through); its cases, files and settings stay untouched.
 */
export async function setCompanySuspended(
  database: Database,
  operatorId: string,
  companyId: string,
  suspended: boolean,
): Promise<{ id: string; suspended_at: string | null }> {
  return database.db.transaction(async (tx) => {
    const [company] = await tx
      .select({ id: companies.id, suspendedAt: companies.suspendedAt })
      .from(companies)
      .where(eq(companies.id, companyId));
    if (!company) throw new AppError('NOT_FOUND');
    if (Boolean(company.suspendedAt) === suspended)
      return { id: company.id, suspended_at: company.suspendedAt?.toISOString() ?? null };
    const [changed] = await tx
      .update(companies)
      .set({ suspendedAt: suspended ? new Date() : null })
      .where(
        and(
          eq(companies.id, companyId),
          suspended ? isNull(companies.suspendedAt) : isNotNull(companies.suspendedAt),
        ),
      )
      .returning({ suspendedAt: companies.suspendedAt });
    if (suspended)
      await tx
        .delete(sessions)
        .where(
          inArray(
            sessions.userId,
            tx.select({ id: users.id }).from(users).where(eq(users.companyId, companyId)),
          ),
        );
    await recordAudit(tx, {
      companyId,
      actorId: operatorId,
      action: suspended ? 'company.suspend' : 'company.resume',
      targetType: 'company',
      targetId: companyId,
    });
    return { id: company.id, suspended_at: changed?.suspendedAt?.toISOString() ?? null };
  });
}

/** What the operator watches: mail that is not going out, and how much evidence the platform stores. */
export async function platformHealth(database: Database): Promise<PlatformHealth> {
  const { db } = database;
  const [pending] = await db
    .select({ count: count(), oldest: min(mailOutbox.createdAt) })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'pending'));
  const [failed] = await db
    .select({ count: count() })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'failed'));
  const [storage] = await db.select({ bytes: sum(files.size), files: count() }).from(files);
  const oldest = pending?.oldest ? new Date(pending.oldest) : null;
  return {
    outbox: {
      pending: Number(pending?.count ?? 0),
      oldest_pending_seconds: oldest ? Math.max(0, Math.floor((Date.now() - oldest.getTime()) / 1000)) : null,
      failed: Number(failed?.count ?? 0),
    },
    storage: { bytes: Number(storage?.bytes ?? 0), files: Number(storage?.files ?? 0) },
  };
}
