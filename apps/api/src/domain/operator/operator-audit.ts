import {
  OPERATOR_AUDIT_ACTIONS,
  type OperatorAuditAction,
  type OperatorAuditPage,
  type operatorAuditQuery,
} from '@ansim/shared/contract/operator';
import { and, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { auditEvents, companies, users } from '../../db/schema.ts';

export const OPERATOR_AUDIT_PAGE_SIZE = 20;

/**
 * The operator's own record: which company was created, suspended or resumed, by whom and when. The rows are
 * the companies' own audit rows (each company's admin sees them in its log too); they are reached through
 * `target_id`, whose index holds only a company's few company-level rows, so this never walks the case reads
 * that make up most of the table.
 */
export async function listOperatorAudit(
  database: Database,
  query: z.infer<typeof operatorAuditQuery>,
): Promise<OperatorAuditPage> {
  const actor = alias(users, 'actor');
  const where = and(
    or(
      and(eq(auditEvents.targetType, 'company'), eq(auditEvents.targetId, sql`${companies.id}::text`)),
      // Every domain claim of every company, refused ones included: a domain is how people join a company.
      and(eq(auditEvents.targetType, 'domain'), eq(auditEvents.action, 'company.domain')),
    ),
    query.action
      ? eq(auditEvents.action, query.action)
      : inArray(auditEvents.action, [...OPERATOR_AUDIT_ACTIONS]),
    ...(query.company_id ? [eq(companies.id, query.company_id)] : []),
  );
  const [total] = await database.db
    .select({ n: count() })
    .from(companies)
    .innerJoin(auditEvents, eq(auditEvents.companyId, companies.id))
    .where(where);
  const rows = await database.db
    .select({
      id: auditEvents.id,
      at: auditEvents.at,
      action: auditEvents.action,
      actorId: auditEvents.actorId,
      actorName: actor.name,
      companyId: companies.id,
      companyName: companies.name,
      detail: auditEvents.detail,
    })
    .from(companies)
    .innerJoin(auditEvents, eq(auditEvents.companyId, companies.id))
    .leftJoin(actor, eq(actor.id, auditEvents.actorId))
    .where(where)
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(OPERATOR_AUDIT_PAGE_SIZE)
    .offset((query.page - 1) * OPERATOR_AUDIT_PAGE_SIZE);
  return {
    count: Number(total?.n ?? 0),
    page: query.page,
    page_size: OPERATOR_AUDIT_PAGE_SIZE,
    results: rows.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      action: row.action as OperatorAuditAction,
      actor: row.actorId ? { id: row.actorId, name: row.actorName ?? '' } : null,
      company: { id: row.companyId, name: row.companyName },
      detail: row.detail ?? null,
    })),
  };
}
