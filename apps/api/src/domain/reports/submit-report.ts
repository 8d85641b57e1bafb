import { randomUUID } from 'node:crypto';
import { REPORT_TYPE_LABELS_KO } from '@ansim/shared/constants';
import { REPORTER_IDENTITY_FIELDS, type ReportForm } from '@ansim/shared/report-form';
import { and, eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import {
  caseCounters,
  companies,
  protectiveMeasures,
  reportFiles,
  reportStatusHistory,
  reports,
  users,
} from '../../db/schema.ts';
import { sealJson, sealText, sealWithIndex } from '../../encryption/codec.ts';
import { AppError } from '../../lib/app-error.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { newCaseMail } from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import { foreignFileIds } from '../files/files.ts';
import type { SessionUser } from '../sessions/sessions.ts';

type Deps = { database: Database; config: Config };

/** Every file id the reporter's parts of the form cite. */
export function citedFileIds(form: ReportForm): string[] {
  const ids = [
    ...form.acts.flatMap((act) => act.evidences ?? []),
    ...form.harms.flatMap((harm) => harm.evidences ?? []),
  ];
  return [...new Set(ids)];
}

/**
 * The form as stored: fields the server controls (when invitations were mailed) and the statement fields of
 * invitees are reset, and an anonymous report keeps no trace of who the reporter is.
 */
export function normalizeReporterForm(form: ReportForm): ReportForm {
  const stored: ReportForm = {
    ...form,
    perpetrator_email_sent_at: null,
    witnesses: form.witnesses.map((witness) => ({ ...witness, email_sent_at: null })),
    defendant_truth: '',
    defendant_true_part: '',
    defendant_false_part: '',
    defendant_opinion: '',
    defendant_extra_info: '',
    defendant_evidences: null,
    defendant_witnesses: [],
    reference_witnessed: '',
    reference_memory: '',
    reference_opinion: '',
    reference_evidences: null,
  };
  if (form.report_type === 'anonym') {
    for (const field of REPORTER_IDENTITY_FIELDS) stored[field] = '';
  }
  return stored;
}

class IdempotentReplay extends Error {}

async function findByIdempotencyKey(
  database: Database,
  reporterId: string,
  key: string,
): Promise<string | null> {
  const [row] = await database.db
    .select({ id: reports.id })
    .from(reports)
    .where(and(eq(reports.reporterId, reporterId), eq(reports.idempotencyKey, key)));
  return row?.id ?? null;
}

/**
 * Files a report for the reporter's company. The report, its file links, its first status row and the mail
 * telling the company's managers that a case arrived are written in one transaction. The same idempotency
 * key never makes a second report: a retry gets the first report's id.
 */
export async function submitReport(
  { database, config }: Deps,
  reporter: SessionUser,
  form: ReportForm,
  idempotencyKey: string | undefined,
): Promise<{ id: string; created: boolean }> {
  if (!reporter.companyId) throw new AppError('NO_COMPANY');
  const companyId = reporter.companyId;
  if (idempotencyKey) {
    const existing = await findByIdempotencyKey(database, reporter.id, idempotencyKey);
    if (existing) return { id: existing, created: false };
  }
  const stored = normalizeReporterForm(form);
  const fileIds = citedFileIds(stored);
  const foreign = await foreignFileIds(database.db, fileIds, reporter.id);
  if (foreign.length > 0) {
    throw new AppError('VALIDATION_ERROR', {
      details: { evidences: '본인이 올린 파일만 증거로 첨부할 수 있습니다.' },
    });
  }

  // Sealed before the transaction: a data key may have to be read or made first.
  const reportId = randomUUID();
  const sealedForm = await sealJson(database, companyId, 'reports.form', reportId, stored);
  const accused = await sealWithIndex(
    database,
    companyId,
    'reports.accused_name',
    reportId,
    stored.perpetrator_name.trim(),
  );
  const measures = await Promise.all(
    stored.protection_requests.map(async (measure) => {
      const id = randomUUID();
      return {
        id,
        measure,
        detail: await sealText(
          database,
          companyId,
          'protective_measures.detail',
          id,
          measure === 'other' ? stored.protection_etc : '',
        ),
      };
    }),
  );

  try {
    const id = await database.db.transaction(async (tx) => {
      const [deadlines] = await tx
        .select({ ack: companies.ackDeadlineDays, feedback: companies.feedbackDeadlineDays })
        .from(companies)
        .where(eq(companies.id, companyId));
      const now = Date.now();
      const day = 24 * 3600 * 1000;
      const [report] = await tx
        .insert(reports)
        .values({
          id: reportId,
          companyId,
          reporterId: reporter.id,
          reportType: stored.report_type as 'anonym' | 'brief' | 'formal',
          // Numbered at the end of the transaction: see below.
          caseNumber: `pending-${randomUUID()}`,
          form: sealedForm,
          idempotencyKey: idempotencyKey ?? null,
          accusedName: accused.sealed,
          ackDueAt: new Date(now + (deadlines?.ack ?? 7) * day),
          feedbackDueAt: new Date(now + (deadlines?.feedback ?? 90) * day),
        })
        .onConflictDoNothing({ target: [reports.reporterId, reports.idempotencyKey] })
        .returning({ id: reports.id });
      if (!report) throw new IdempotentReplay();
      if (fileIds.length > 0)
        await tx.insert(reportFiles).values(fileIds.map((fileId) => ({ reportId: report.id, fileId })));
      await tx
        .insert(reportStatusHistory)
        .values({ reportId: report.id, actorId: null, fromStatus: null, toStatus: 'received' });
      if (measures.length > 0) {
        await tx
          .insert(protectiveMeasures)
          .values(
            measures.map((measure) => ({ reportId: report.id, ...measure, requestedByReporter: true })),
          );
      }
      const managers = await tx
        .select({ email: users.email })
        .from(users)
        .where(and(eq(users.companyId, companyId), eq(users.role, 'manager')));
      // The company's counter row is locked until commit, so every submission of the company waits on it:
      // take it last, to hold it only for the numbering, the notice mails and the commit.
      const year = new Date().getFullYear();
      const [counter] = await tx
        .insert(caseCounters)
        .values({ companyId, year, lastNumber: 1 })
        .onConflictDoUpdate({
          target: [caseCounters.companyId, caseCounters.year],
          set: { lastNumber: sql`${caseCounters.lastNumber} + 1` },
        })
        .returning({ lastNumber: caseCounters.lastNumber });
      const caseNumber = `${year}-${String(counter!.lastNumber).padStart(4, '0')}`;
      await tx.update(reports).set({ caseNumber }).where(eq(reports.id, report.id));
      for (const manager of managers) {
        await enqueueMail(
          tx,
          'new_case',
          manager.email,
          newCaseMail({
            caseNumber,
            typeLabel: REPORT_TYPE_LABELS_KO[stored.report_type as 'anonym' | 'brief' | 'formal'],
            url: `${config.PUBLIC_URL}/manager/detail/${report.id}`,
          }),
        );
      }
      return report.id;
    });
    wakeMailWorkers();
    return { id, created: true };
  } catch (error) {
    // Two requests with one key raced: the loser's transaction rolled back and the winner's report stands.
    if (error instanceof IdempotentReplay && idempotencyKey) {
      const existing = await findByIdempotencyKey(database, reporter.id, idempotencyKey);
      if (existing) return { id: existing, created: false };
    }
    throw error;
  }
}
