import { and, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { keptStatement } from '../../db/kept-statements.ts';
import { AUDIT_READ_ACTIONS, AUDIT_READ_ACTIONS_SQL, auditEvents } from '../../db/schema.ts';

export type AuditAction =
  | 'report.list'
  | 'report.read'
  | 'report.watch'
  | 'report.export'
  | 'report.record'
  | 'report.status'
  | 'file.download'
  | 'message.create'
  | 'measure.create'
  | 'measure.update'
  | 'invitation.send'
  | 'invitation.revoke'
  | 'case.assign'
  | 'case.exclusion'
  | 'case.outcome'
  | 'case.reopen'
  | 'measure.opinion'
  | 'company.create'
  | 'company.suspend'
  | 'company.resume'
  | 'company.settings'
  | 'company.join_code'
  | 'company.intake_code'
  | 'company.domain'
  | 'company.invitation'
  | 'user.role';

/** Reads: repeated within `READ_COALESCE_MS` by one user on one target, they are one row with a count. */
export const READ_ACTIONS = AUDIT_READ_ACTIONS;
export const READ_COALESCE_MS = 10 * 60_000;
const isRead = (action: AuditAction) => (READ_ACTIONS as readonly string[]).includes(action);

type ReadEvent = { companyId: string; actorId: string; action: AuditAction; targetId: string };

const value = (name: keyof ReadEvent | 'since' | 'now') => sql.placeholder(name);

/**
 * The fold's UPDATE for one read action, built once per executor with placeholders (docs/decisions/0021). The
 * action is written into the statement as a literal: a plan kept for every value (a generic plan) can use the
 * partial indexes only if the statement itself shows that the action is one of theirs.
 */
function foldReadOf(action: AuditAction) {
  const literal = sql.raw(`'${action.replace(/'/g, "''")}'`);
  return keptStatement((executor: Pick<Db, 'update'>) => {
    const latest = sql`(SELECT ${auditEvents.id} FROM ${auditEvents}
      WHERE ${auditEvents.companyId} = ${value('companyId')} AND ${auditEvents.actorId} = ${value('actorId')}
        AND ${auditEvents.targetId} = ${value('targetId')} AND ${auditEvents.action} = ${literal}
      ORDER BY ${auditEvents.at} DESC LIMIT 1)`;
    return executor
      .update(auditEvents)
      .set({ lastAt: sql`${value('now')}::timestamptz`, repeatCount: sql`${auditEvents.repeatCount} + 1` })
      .where(
        and(
          sql`${auditEvents.id} = ${latest}`,
          sql`coalesce(${auditEvents.lastAt}, ${auditEvents.at}) > ${value('since')}::timestamptz`,
          sql`NOT EXISTS (SELECT 1 FROM audit_events later
            WHERE later.company_id = ${value('companyId')} AND later.target_id = ${value('targetId')}
              AND later.action NOT IN ${sql.raw(AUDIT_READ_ACTIONS_SQL)}
              AND later.at > ${auditEvents.at})`,
        ),
      )
      .returning({ id: auditEvents.id });
  });
}

const foldReads = new Map(READ_ACTIONS.map((action) => [action as AuditAction, foldReadOf(action)]));

/**
 * The statement that folds a read into the same user's last row of the same read of the same target, if that
 * row was last touched less than ten minutes ago and no change to the target was recorded since (a change splits
 * the reads around it, so the log still says who read the case after it changed). Returned ready to run, so a
 * test can EXPLAIN it: its two lookups are the partial indexes `audit_events_reads_idx` and
 * `audit_events_changes_idx`, whose predicates the read actions are written into the statement as literals to
 * match.
 */
export function foldReadStatement(executor: Pick<Db, 'update'>, event: ReadEvent, now: Date) {
  const since = new Date(now.getTime() - READ_COALESCE_MS);
  const fold = foldReads.get(event.action);
  if (!fold) throw new Error(`${event.action} is not a read`);
  const { action: _action, ...keys } = event;
  return fold(executor, { ...keys, since: since.toISOString(), now: now.toISOString() });
}

/** Folds a read into the user's recent row of the same read (see `foldReadStatement`); whether it did. */
async function foldRepeatedRead(executor: Pick<Db, 'update'>, event: ReadEvent, now: Date): Promise<boolean> {
  const updated = await foldReadStatement(executor, event, now);
  return updated.length > 0;
}

/** Records what a company user or the operator did. Never the content, never an address: only who, what, which case, when. */
export async function recordAudit(
  executor: Pick<Db, 'insert' | 'update'>,
  event: {
    companyId: string;
    /** Null for what no logged-in person did (the admin CLI), and for the reporter, who is never named in the log. */
    actorId: string | null;
    action: AuditAction;
    targetType: 'report' | 'company' | 'file' | 'invitation' | 'user' | 'domain';
    targetId?: string;
    /** What changed (old and new values of a setting or role); never case content, never an address. */
    detail?: Record<string, unknown>;
  },
  now = new Date(),
): Promise<void> {
  if (
    isRead(event.action) &&
    event.actorId &&
    event.targetId &&
    (await foldRepeatedRead(
      executor,
      { companyId: event.companyId, actorId: event.actorId, action: event.action, targetId: event.targetId },
      now,
    ))
  )
    return;
  await executor.insert(auditEvents).values({
    companyId: event.companyId,
    actorId: event.actorId,
    action: event.action,
    targetType: event.targetType,
    targetId: event.targetId ?? null,
    detail: event.detail ?? null,
    at: now,
  });
}
