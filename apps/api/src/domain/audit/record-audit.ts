import type { Db } from '../../db/client.ts';
import { auditEvents } from '../../db/schema.ts';

export type AuditAction =
  | 'report.list'
  | 'report.read'
  | 'report.watch'
  | 'report.export'
  | 'report.status'
  | 'file.download'
  | 'message.create'
  | 'measure.create'
  | 'measure.update'
  | 'invitation.send'
  | 'invitation.revoke';

/** Records what a manager did. Never the content, never an address: only who, what, which case, when. */
export async function recordAudit(
  executor: Pick<Db, 'insert'>,
  event: {
    companyId: string;
    actorId: string;
    action: AuditAction;
    targetType: 'report' | 'company' | 'file' | 'invitation';
    targetId?: string;
  },
): Promise<void> {
  await executor.insert(auditEvents).values({
    companyId: event.companyId,
    actorId: event.actorId,
    action: event.action,
    targetType: event.targetType,
    targetId: event.targetId ?? null,
  });
}
