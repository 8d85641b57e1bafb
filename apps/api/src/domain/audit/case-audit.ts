import type { CaseAuditRow } from '@ansim/shared/contract/manager';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { auditEvents, users } from '../../db/schema.ts';

export const caseAuditQuery = z.object({
  action: z
    .string()
    .trim()
    .regex(/^[a-z_]+\.[a-z_]+$/, '올바르지 않은 기록 종류입니다.')
    .max(40)
    .optional(),
  user_id: z.uuid('올바르지 않은 사용자입니다.').optional(),
});
export type CaseAuditQuery = z.infer<typeof caseAuditQuery>;

export type { CaseAuditRow };

/** The investigation's access and change log of one case, newest first, optionally by action and by user. */
export async function caseAuditLog(
  database: Database,
  companyId: string,
  reportId: string,
  query: CaseAuditQuery = {},
): Promise<CaseAuditRow[]> {
  const conditions: SQL[] = [eq(auditEvents.targetId, reportId), eq(auditEvents.companyId, companyId)];
  if (query.action) conditions.push(eq(auditEvents.action, query.action));
  if (query.user_id) conditions.push(eq(auditEvents.actorId, query.user_id));
  const rows = await database.db
    .select({
      action: auditEvents.action,
      actorId: auditEvents.actorId,
      actorName: users.name,
      at: auditEvents.at,
      lastAt: auditEvents.lastAt,
      repeatCount: auditEvents.repeatCount,
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorId))
    .where(and(...conditions))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(200);
  return rows.map((row) => ({
    action: row.action,
    actor_id: row.actorId,
    actor_name: row.actorName,
    at: row.at.toISOString(),
    last_at: row.lastAt?.toISOString() ?? null,
    repeat_count: row.repeatCount,
  }));
}
