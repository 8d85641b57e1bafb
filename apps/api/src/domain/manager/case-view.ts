import path from 'node:path';
import { isClosedStatus, STATUS_TRANSITIONS } from '@ansim/shared/constants';
import type { CaseFile, ManagerCase } from '@ansim/shared/contract/manager';
import type { ReportForm } from '@ansim/shared/report-form';
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  companies,
  files,
  invitations,
  protectiveMeasures,
  reportFiles,
  reportMessages,
  reportStatusHistory,
  type reports,
  statements,
  users,
} from '../../db/schema.ts';
import { openJson, openText } from '../../encryption/codec.ts';
import { caseAuditLog } from '../audit/case-audit.ts';
import { assignableHandlers, caseAssignees, caseExclusionViews } from './assignees.ts';
import { findCompanyReport, type HandlerContext, seesEveryCase } from './case-scope.ts';

/** What a manager sees in place of the reporter of an anonymous case, everywhere. */
/**
 * An anonymous report stores no edit time (decision 0030); one stored before that rule is not shown either.
 */
function withoutAnonymousEditTime(reportType: string, form: ReportForm): ReportForm {
  return reportType === 'anonym' ? { ...form, last_edit: null } : form;
}

export const ANONYMOUS_REPORTER_LABEL = '신고인';

export type { CaseFile, ManagerCase };

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

/** Files of a case in a stable order, so the generic names of an anonymous case stay the same. */
export async function caseFiles(
  database: Database,
  report: Pick<ReportRow, 'id' | 'reportType'>,
): Promise<CaseFile[]> {
  const rows = await database.db
    .select({ file: files, messageId: reportFiles.messageId })
    .from(reportFiles)
    .innerJoin(files, eq(files.id, reportFiles.fileId))
    .where(eq(reportFiles.reportId, report.id))
    .orderBy(asc(reportFiles.position), asc(files.createdAt), asc(files.id));
  return Promise.all(
    rows.map(async ({ file, messageId }, index) => ({
      id: file.id,
      name: evidenceDisplayName(
        report.reportType,
        await openText(database, 'files.original_name', file.id, file.originalName),
        index,
      ),
      size: file.size,
      content_type: file.contentType,
      // An anonymous case shows no digest: a digest is what would join its evidence to a file uploaded under an
      // account (docs/decisions/0029). The investigation record prints the digests (caseFileDigests).
      sha256:
        report.reportType === 'anonym'
          ? null
          : await openText(database, 'files.sha256', file.id, file.sha256),
      metadata: file.metadataStatus,
      message_id: messageId,
    })),
  );
}

/**
 * The SHA-256 of each file of the case, by file id, for the investigation record (docs/decisions/0010): the
 * digest of the bytes a download delivers, so a printed record can be checked against the files it lists.
 */
export async function caseFileDigests(database: Database, reportId: string): Promise<Map<string, string>> {
  const rows = await database.db
    .select({ id: files.id, sha256: files.sha256 })
    .from(reportFiles)
    .innerJoin(files, eq(files.id, reportFiles.fileId))
    .where(eq(reportFiles.reportId, reportId));
  const digests = await Promise.all(
    rows.map(async (row) => [row.id, await openText(database, 'files.sha256', row.id, row.sha256)] as const),
  );
  return new Map(digests);
}

/** Files by the message they came with, each under its case name (generic for an anonymous case). */
export function filesByMessage(caseFileList: CaseFile[]): Map<string, CaseFile[]> {
  const byMessage = new Map<string, CaseFile[]>();
  for (const file of caseFileList) {
    if (!file.message_id) continue;
    byMessage.set(file.message_id, [...(byMessage.get(file.message_id) ?? []), file]);
  }
  return byMessage;
}

/**
 * The whole case for its company's managers. For an anonymous report nothing here names the reporter: the
 * stored form holds no identity, the reporter field is null, messages say 신고인 and file names are generic.
 */
export async function getManagerCase(
  database: Database,
  handler: HandlerContext,
  reportId: string,
): Promise<ManagerCase> {
  const row = await findCompanyReport(database, handler, reportId);
  const { companyId } = handler;
  const isAnonymous = row.reportType === 'anonym';
  const [reporterRow] =
    !isAnonymous && row.reporterId
      ? await database.db
          .select({ name: users.name, email: users.email })
          .from(users)
          .where(eq(users.id, row.reporterId))
      : [];
  const [outcomeBy] = row.outcomeBy
    ? await database.db.select({ name: users.name }).from(users).where(eq(users.id, row.outcomeBy))
    : [];
  const [company] = await database.db
    .select({ shareOutcomeSummary: companies.shareOutcomeSummary })
    .from(companies)
    .where(eq(companies.id, row.companyId));
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
    caseAuditLog(database, companyId, reportId),
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
  const canAssign = seesEveryCase(handler);
  const [assignees, assignable, exclusions] = await Promise.all([
    caseAssignees(database, reportId),
    canAssign ? assignableHandlers(database, companyId, reportId) : [],
    canAssign ? caseExclusionViews(database, reportId) : [],
  ]);
  const invitationViews = await Promise.all(
    invitationRows.map(async (row) => ({
      ...row,
      name: await openText(database, 'invitations.name', row.id, row.name),
      email: await openText(database, 'invitations.email', row.id, row.email),
    })),
  );
  const invitationNames = new Map(invitationViews.map((row) => [row.id, row.name]));
  const messageFiles = filesByMessage(fileViews);
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
    form: withoutAnonymousEditTime(
      row.reportType,
      await openJson<ReportForm>(database, 'reports.form', row.id, row.form),
    ),
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
        is_feedback: entry.isFeedback,
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
        is_feedback: message.isFeedback,
        files: messageFiles.get(message.id) ?? [],
      })),
    ),
    measures: await Promise.all(
      measures.map(async (measure) => ({
        id: measure.id,
        measure: measure.measure,
        detail: await openText(database, 'protective_measures.detail', measure.id, measure.detail),
        requested_by_reporter: measure.requestedByReporter,
        reporter_consent: measure.reporterConsent,
        reporter_opinion: await openText(
          database,
          'protective_measures.reporter_opinion',
          measure.id,
          measure.reporterOpinion,
        ),
        reporter_opinion_at: measure.reporterOpinionAt?.toISOString() ?? null,
        decision: measure.decision,
        reason: await openText(database, 'protective_measures.reason', measure.id, measure.reason),
        decided_at: measure.decidedAt?.toISOString() ?? null,
      })),
    ),
    outcome:
      row.outcomeFinding && row.outcomeAt
        ? {
            finding: row.outcomeFinding,
            actions: row.outcomeActions,
            summary: await openText(database, 'reports.outcome_summary', row.id, row.outcomeSummary),
            recorded_at: row.outcomeAt.toISOString(),
            recorded_by: outcomeBy?.name ?? null,
          }
        : null,
    share_outcome_summary: company?.shareOutcomeSummary ?? true,
    is_closed: isClosedStatus(row.status),
    audit,
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
        form: await openJson<Partial<ReportForm>>(database, 'statements.form', row.id, row.form),
        sha256: row.sha256,
        created_at: row.createdAt.toISOString(),
      })),
    ),
    assignees,
    can_assign: canAssign,
    assignable_handlers: assignable,
    exclusions,
  };
}
