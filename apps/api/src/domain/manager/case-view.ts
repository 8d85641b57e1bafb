import path from 'node:path';
import { type ReportStatus, STATUS_TRANSITIONS } from '@ansim/shared/constants';
import type { ReportForm } from '@ansim/shared/report-form';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  auditEvents,
  files,
  invitations,
  protectiveMeasures,
  reportFiles,
  reportMessages,
  reportStatusHistory,
  reports,
  statements,
  users,
} from '../../db/schema.ts';
import { openJson, openText } from '../../encryption/codec.ts';
import { AppError } from '../../lib/app-error.ts';

/** What a manager sees in place of the reporter of an anonymous case, everywhere. */
export const ANONYMOUS_REPORTER_LABEL = '신고인';

export interface CaseFile {
  id: string;
  name: string;
  size: number;
  content_type: string;
  sha256: string;
}

export interface ManagerCase {
  id: string;
  case_number: string;
  report_type: string;
  status: ReportStatus;
  created_at: string;
  updated_at: string;
  ack_due_at: string;
  feedback_due_at: string;
  acknowledged_at: string | null;
  feedback_at: string | null;
  closed_at: string | null;
  is_ack_overdue: boolean;
  is_feedback_overdue: boolean;
  allowed_transitions: ReportStatus[];
  /** Null for an anonymous report: the company never learns who filed it. */
  reporter: { name: string; email: string } | null;
  form: ReportForm;
  files: CaseFile[];
  history: {
    from_status: string | null;
    to_status: string;
    note_for_reporter: string;
    internal_note: string;
    actor_name: string | null;
    created_at: string;
  }[];
  messages: {
    id: string;
    author_kind: 'reporter' | 'manager';
    author_name: string;
    body: string;
    created_at: string;
  }[];
  measures: {
    id: string;
    measure: string;
    detail: string;
    requested_by_reporter: boolean;
    reporter_consent: boolean | null;
    decision: 'pending' | 'granted' | 'refused';
    reason: string;
    decided_at: string | null;
  }[];
  audit: { action: string; actor_name: string | null; at: string }[];
  invitations: {
    id: string;
    kind: 'defendant' | 'reference';
    name: string;
    email: string;
    witness_index: number | null;
    share_evidence: boolean;
    expires_at: string;
    sent_at: string | null;
    opened_at: string | null;
    acknowledged_at: string | null;
    responded_at: string | null;
    revoked_at: string | null;
    is_expired: boolean;
  }[];
  statements: {
    id: string;
    invitation_id: string;
    kind: 'defendant' | 'reference';
    name: string;
    form: Record<string, unknown>;
    sha256: string;
    created_at: string;
  }[];
}

/**
 * The display name of an evidence file as a manager sees it. For an anonymous case the uploaded name is
 * replaced, since names like "김민지_녹음.m4a" identify people; the extension stays so the file opens.
 */
export function evidenceDisplayName(reportType: string, originalName: string, index: number): string {
  if (reportType !== 'anonym') return originalName;
  const extension = path
    .extname(originalName)
    .toLowerCase()
    .replace(/[^.a-z0-9]/g, '');
  return `증거자료-${index + 1}${extension}`;
}

export function isAckOverdue(
  row: { acknowledgedAt: Date | null; ackDueAt: Date },
  now = Date.now(),
): boolean {
  return !row.acknowledgedAt && row.ackDueAt.getTime() < now;
}

export function isFeedbackOverdue(
  row: { feedbackAt: Date | null; closedAt: Date | null; feedbackDueAt: Date },
  now = Date.now(),
): boolean {
  return !row.feedbackAt && !row.closedAt && row.feedbackDueAt.getTime() < now;
}

type ReportRow = typeof reports.$inferSelect;

/** A case of the manager's company; another company's case is the same 404 as a missing one. */
export async function findCompanyReport(
  database: Database,
  companyId: string,
  reportId: string,
): Promise<ReportRow> {
  const [row] = await database.db
    .select()
    .from(reports)
    .where(and(eq(reports.id, reportId), eq(reports.companyId, companyId)));
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** Files of a case in a stable order, so the generic names of an anonymous case stay the same. */
export async function caseFiles(
  database: Database,
  report: Pick<ReportRow, 'id' | 'reportType'>,
): Promise<CaseFile[]> {
  const rows = await database.db
    .select({ file: files })
    .from(reportFiles)
    .innerJoin(files, eq(files.id, reportFiles.fileId))
    .where(eq(reportFiles.reportId, report.id))
    .orderBy(asc(files.createdAt), asc(files.id));
  return Promise.all(
    rows.map(async ({ file }, index) => ({
      id: file.id,
      name: evidenceDisplayName(
        report.reportType,
        await openText(database, 'files.original_name', file.id, file.originalName),
        index,
      ),
      size: file.size,
      content_type: file.contentType,
      sha256: file.sha256,
    })),
  );
}

/**
 * The whole case for its company's managers. For an anonymous report nothing here names the reporter: the
 * stored form holds no identity, the reporter field is null, messages say 신고인 and file names are generic.
 */
export async function getManagerCase(
  database: Database,
  companyId: string,
  reportId: string,
): Promise<ManagerCase> {
  const row = await findCompanyReport(database, companyId, reportId);
  const isAnonymous = row.reportType === 'anonym';
  const [reporterRow] =
    !isAnonymous && row.reporterId
      ? await database.db
          .select({ name: users.name, email: users.email })
          .from(users)
          .where(eq(users.id, row.reporterId))
      : [];
  const [fileViews, history, messages, measures, audit, invitationRows, statementRows] = await Promise.all([
    caseFiles(database, row),
    database.db
      .select({ entry: reportStatusHistory, actorName: users.name })
      .from(reportStatusHistory)
      .leftJoin(users, eq(users.id, reportStatusHistory.actorId))
      .where(eq(reportStatusHistory.reportId, reportId))
      .orderBy(asc(reportStatusHistory.createdAt)),
    database.db
      .select({ message: reportMessages, authorName: users.name })
      .from(reportMessages)
      .leftJoin(users, eq(users.id, reportMessages.authorId))
      .where(eq(reportMessages.reportId, reportId))
      .orderBy(asc(reportMessages.createdAt)),
    database.db
      .select()
      .from(protectiveMeasures)
      .where(eq(protectiveMeasures.reportId, reportId))
      .orderBy(asc(protectiveMeasures.createdAt)),
    database.db
      .select({ action: auditEvents.action, actorName: users.name, at: auditEvents.at })
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.actorId))
      .where(and(eq(auditEvents.targetId, reportId), eq(auditEvents.companyId, companyId)))
      .orderBy(desc(auditEvents.at))
      .limit(200),
    database.db
      .select()
      .from(invitations)
      .where(eq(invitations.reportId, reportId))
      .orderBy(asc(invitations.createdAt)),
    database.db
      .select()
      .from(statements)
      .where(eq(statements.reportId, reportId))
      .orderBy(asc(statements.createdAt)),
  ]);
  const invitationViews = await Promise.all(
    invitationRows.map(async (row) => ({
      ...row,
      name: await openText(database, 'invitations.name', row.id, row.name),
      email: await openText(database, 'invitations.email', row.id, row.email),
    })),
  );
  const invitationNames = new Map(invitationViews.map((row) => [row.id, row.name]));
  return {
    id: row.id,
    case_number: row.caseNumber,
    report_type: row.reportType,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ack_due_at: row.ackDueAt.toISOString(),
    feedback_due_at: row.feedbackDueAt.toISOString(),
    acknowledged_at: row.acknowledgedAt?.toISOString() ?? null,
    feedback_at: row.feedbackAt?.toISOString() ?? null,
    closed_at: row.closedAt?.toISOString() ?? null,
    is_ack_overdue: isAckOverdue(row),
    is_feedback_overdue: isFeedbackOverdue(row),
    allowed_transitions: [...STATUS_TRANSITIONS[row.status]],
    reporter: reporterRow ? { name: reporterRow.name, email: reporterRow.email } : null,
    form: await openJson<ReportForm>(database, 'reports.form', row.id, row.form),
    files: fileViews,
    history: await Promise.all(
      history.map(async ({ entry, actorName }) => ({
        from_status: entry.fromStatus,
        to_status: entry.toStatus,
        note_for_reporter: await openText(
          database,
          'report_status_history.note_for_reporter',
          entry.id,
          entry.noteForReporter,
        ),
        internal_note: await openText(
          database,
          'report_status_history.internal_note',
          entry.id,
          entry.internalNote,
        ),
        actor_name: entry.actorId ? actorName : null,
        created_at: entry.createdAt.toISOString(),
      })),
    ),
    messages: await Promise.all(
      messages.map(async ({ message, authorName }) => ({
        id: message.id,
        author_kind: message.authorKind,
        author_name:
          message.authorKind === 'reporter'
            ? isAnonymous
              ? ANONYMOUS_REPORTER_LABEL
              : (reporterRow?.name ?? ANONYMOUS_REPORTER_LABEL)
            : (authorName ?? '담당자'),
        body: await openText(database, 'report_messages.body', message.id, message.body),
        created_at: message.createdAt.toISOString(),
      })),
    ),
    measures: await Promise.all(
      measures.map(async (measure) => ({
        id: measure.id,
        measure: measure.measure,
        detail: await openText(database, 'protective_measures.detail', measure.id, measure.detail),
        requested_by_reporter: measure.requestedByReporter,
        reporter_consent: measure.reporterConsent,
        decision: measure.decision,
        reason: await openText(database, 'protective_measures.reason', measure.id, measure.reason),
        decided_at: measure.decidedAt?.toISOString() ?? null,
      })),
    ),
    audit: audit.map((event) => ({
      action: event.action,
      actor_name: event.actorName,
      at: event.at.toISOString(),
    })),
    invitations: invitationViews.map((row) => ({
      id: row.id,
      kind: row.kind,
      name: row.name,
      email: row.email,
      witness_index: row.witnessIndex,
      share_evidence: row.shareEvidence,
      expires_at: row.expiresAt.toISOString(),
      sent_at: row.sentAt?.toISOString() ?? null,
      opened_at: row.openedAt?.toISOString() ?? null,
      acknowledged_at: row.acknowledgedAt?.toISOString() ?? null,
      responded_at: row.respondedAt?.toISOString() ?? null,
      revoked_at: row.revokedAt?.toISOString() ?? null,
      is_expired: row.expiresAt.getTime() <= Date.now(),
    })),
    statements: await Promise.all(
      statementRows.map(async (row) => ({
        id: row.id,
        invitation_id: row.invitationId,
        kind: row.kind,
        name: invitationNames.get(row.invitationId) ?? '',
        form: await openJson<Record<string, unknown>>(database, 'statements.form', row.id, row.form),
        sha256: row.sha256,
        created_at: row.createdAt.toISOString(),
      })),
    ),
  };
}
