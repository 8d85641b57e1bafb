import { COMPANY_AUDIT_ACTIONS, type CompanyAuditAction } from '@ansim/shared/company-settings';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { auditEvents, users } from '../../db/schema.ts';

export const companyAuditQuery = z.object({
  action: z.enum(COMPANY_AUDIT_ACTIONS).optional(),
  user_id: z.uuid().optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

export const AUDIT_PAGE_SIZE = 50;

export interface AuditEntryView {
  id: string;
  at: string;
  action: CompanyAuditAction;
  actor: { id: string; name: string } | null;
  target_type: string;
  target_id: string | null;
  /** The person a role change concerned, by name: the page reads better than with an id. */
  target_name: string | null;
  detail: Record<string, unknown> | null;
}

/**
 * The company's settings log: who changed which setting, role, domain, code or invitation, and when. Reads of
 * cases are logged too, but they are not settings and are not listed here.
 */
export async function listCompanyAudit(
  database: Database,
  companyId: string,
  query: z.infer<typeof companyAuditQuery>,
): Promise<{ count: number; page: number; page_size: number; results: AuditEntryView[] }> {
  const actor = alias(users, 'actor');
  const conditions = [
    eq(auditEvents.companyId, companyId),
    query.action
      ? eq(auditEvents.action, query.action)
      : inArray(auditEvents.action, [...COMPANY_AUDIT_ACTIONS]),
    ...(query.user_id ? [eq(auditEvents.actorId, query.user_id)] : []),
  ];
  const where = and(...conditions);
  const [total] = await database.db.select({ n: count() }).from(auditEvents).where(where);
  const rows = await database.db
    .select({
      id: auditEvents.id,
      at: auditEvents.at,
      action: auditEvents.action,
      actorId: auditEvents.actorId,
      actorName: actor.name,
      targetType: auditEvents.targetType,
      targetId: auditEvents.targetId,
      detail: auditEvents.detail,
    })
    .from(auditEvents)
    .leftJoin(actor, eq(actor.id, auditEvents.actorId))
    .where(where)
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset((query.page - 1) * AUDIT_PAGE_SIZE);
  const userTargets = rows
    .filter((row) => row.targetType === 'user' && row.targetId)
    .map((row) => row.targetId!);
  const targetNames = new Map(
    userTargets.length === 0
      ? []
      : (
          await database.db
            .select({ id: users.id, name: users.name })
            .from(users)
            .where(and(eq(users.companyId, companyId), inArray(users.id, userTargets)))
        ).map((row) => [row.id, row.name] as const),
  );
  return {
    count: Number(total?.n ?? 0),
    page: query.page,
    page_size: AUDIT_PAGE_SIZE,
    results: rows.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      action: row.action as CompanyAuditAction,
      actor: row.actorId ? { id: row.actorId, name: row.actorName ?? '' } : null,
      target_type: row.targetType,
      target_id: row.targetId,
      target_name: row.targetType === 'user' && row.targetId ? (targetNames.get(row.targetId) ?? null) : null,
      detail: row.detail ?? null,
    })),
  };
}
