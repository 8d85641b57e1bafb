import { isClosedStatus } from '@ansim/shared/constants';
import type { Page } from '@ansim/shared/contract/common';
import type { ReporterReportDetail, ReportSummary } from '@ansim/shared/contract/report';
import { CASE_FINDING_LABELS_KO } from '@ansim/shared/outcomes';
import type { ReportForm } from '@ansim/shared/report-form';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  companies,
  files,
  invitations,
  protectiveMeasures,
  reportFiles,
  reportStatusHistory,
  reports,
} from '../../db/schema.ts';
import { openJson, openText } from '../../encryption/codec.ts';
import { AppError } from '../../lib/app-error.ts';
import { toFileView } from '../files/files.ts';

export type { Page, ReporterReportDetail, ReportSummary };

type ReportRow = Pick<
  typeof reports.$inferSelect,
  'id' | 'caseNumber' | 'reportType' | 'status' | 'createdAt' | 'updatedAt'
>;

function toSummary(row: ReportRow): ReportSummary {
  return {
    id: row.id,
    case_number: row.caseNumber,
    report_type: row.reportType,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function pageLinks(
  basePath: string,
  page: number,
  pageSize: number,
  total: number,
  extra: Record<string, string> = {},
) {
  const link = (target: number) => {
    const params = new URLSearchParams({ ...extra, page: String(target), page_size: String(pageSize) });
    return `${basePath}?${params.toString()}`;
  };
  return {
    next: page * pageSize < total ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
  };
}

export async function listOwnReports(
  database: Database,
  reporterId: string,
  page: number,
  pageSize: number,
): Promise<Page<ReportSummary>> {
  const [total] = await database.db
    .select({ value: count() })
    .from(reports)
    .where(eq(reports.reporterId, reporterId));
  const rows = await database.db
    .select({
      id: reports.id,
      caseNumber: reports.caseNumber,
      reportType: reports.reportType,
      status: reports.status,
      createdAt: reports.createdAt,
      updatedAt: reports.updatedAt,
    })
    .from(reports)
    .where(eq(reports.reporterId, reporterId))
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const totalCount = Number(total?.value ?? 0);
  return {
    count: totalCount,
    ...pageLinks('/api/v1/report/', page, pageSize, totalCount),
    results: rows.map(toSummary),
  };
}

/**
 * How a reporter reaches their report: a named report through the account that filed it, an anonymous one
 * only through its receipt (decision 0005), since no account is linked to it.
 */
export type ReporterAccess = { kind: 'account'; userId: string } | { kind: 'receipt'; reportId: string };

/** The reporter's own report row; any other report, existing or not, is the same 404. */
export async function findOwnReport(database: Database, access: ReporterAccess, reportId: string) {
  const [row] =
    access.kind === 'receipt'
      ? access.reportId === reportId
        ? await database.db.select().from(reports).where(eq(reports.id, reportId))
        : []
      : await database.db
          .select()
          .from(reports)
          .where(and(eq(reports.id, reportId), eq(reports.reporterId, access.userId)));
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export async function getOwnReport(
  database: Database,
  access: ReporterAccess,
  reportId: string,
): Promise<ReporterReportDetail> {
  const row = await findOwnReport(database, access, reportId);
  const [company] = await database.db
    .select({ shareOutcomeSummary: companies.shareOutcomeSummary })
    .from(companies)
    .where(eq(companies.id, row.companyId));
  const [fileRows, history, invitationRows, measureRows] = await Promise.all([
    database.db
      .select({ file: files })
      .from(reportFiles)
      .innerJoin(files, eq(files.id, reportFiles.fileId))
      .where(eq(reportFiles.reportId, reportId)),
    database.db
      .select({
        id: reportStatusHistory.id,
        fromStatus: reportStatusHistory.fromStatus,
        toStatus: reportStatusHistory.toStatus,
        noteForReporter: reportStatusHistory.noteForReporter,
        createdAt: reportStatusHistory.createdAt,
      })
      .from(reportStatusHistory)
      .where(eq(reportStatusHistory.reportId, reportId))
      .orderBy(asc(reportStatusHistory.createdAt)),
    database.db
      .select({
        kind: invitations.kind,
        respondedAt: invitations.respondedAt,
        revokedAt: invitations.revokedAt,
      })
      .from(invitations)
      .where(eq(invitations.reportId, reportId)),
    database.db
      .select()
      .from(protectiveMeasures)
      .where(eq(protectiveMeasures.reportId, reportId))
      .orderBy(asc(protectiveMeasures.createdAt)),
  ]);
  const active = invitationRows.filter((row) => !row.revokedAt);
  const defendants = active.filter((row) => row.kind === 'defendant');
  const references = active.filter((row) => row.kind === 'reference');
  return {
    ...toSummary(row),
    form: await openJson<ReportForm>(database, 'reports.form', row.id, row.form),
    files: await Promise.all(fileRows.map(({ file }) => toFileView(database, file))),
    history: await Promise.all(
      history.map(async (entry) => ({
        from_status: entry.fromStatus,
        to_status: entry.toStatus,
        note_for_reporter: await openText(
          database,
          'report_status_history.note_for_reporter',
          entry.id,
          entry.noteForReporter,
        ),
        created_at: entry.createdAt.toISOString(),
      })),
    ),
    statements: {
      defendant: defendants.some((row) => row.respondedAt)
        ? 'responded'
        : defendants.length > 0
          ? 'requested'
          : 'not_requested',
      references_requested: references.length,
      references_responded: references.filter((row) => row.respondedAt).length,
    },
    outcome:
      row.outcomeFinding && row.outcomeAt
        ? {
            finding: row.outcomeFinding,
            finding_label: CASE_FINDING_LABELS_KO[row.outcomeFinding],
            summary: company?.shareOutcomeSummary
              ? await openText(database, 'reports.outcome_summary', row.id, row.outcomeSummary)
              : null,
            recorded_at: row.outcomeAt.toISOString(),
          }
        : null,
    is_closed: isClosedStatus(row.status),
    measures: await Promise.all(
      measureRows.map(async (row) => ({
        id: row.id,
        measure: row.measure,
        detail: await openText(database, 'protective_measures.detail', row.id, row.detail),
        decision: row.decision,
        reason: await openText(database, 'protective_measures.reason', row.id, row.reason),
        decided_at: row.decidedAt?.toISOString() ?? null,
        reporter_consent: row.reporterConsent,
        reporter_opinion: await openText(
          database,
          'protective_measures.reporter_opinion',
          row.id,
          row.reporterOpinion,
        ),
        reporter_opinion_at: row.reporterOpinionAt?.toISOString() ?? null,
      })),
    ),
  };
}
