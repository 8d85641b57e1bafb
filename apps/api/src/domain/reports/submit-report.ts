import { randomUUID } from 'node:crypto';
import { HANDLER_ROLES, REPORT_TYPE_LABELS_KO } from '@ansim/shared/constants';
import { REPORTER_IDENTITY_FIELDS, type ReportForm } from '@ansim/shared/report-form';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { keptSql } from '../../db/kept-statements.ts';
import { files, intakeSessions, reports, users } from '../../db/schema.ts';
import { openText, sealJson, sealText, sealWithIndex } from '../../encryption/codec.ts';
import { keyringOf } from '../../encryption/keyring.ts';
import { AppError } from '../../lib/app-error.ts';
import { enqueueMails } from '../../mail/outbox.ts';
import { newCaseMail } from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import { assertCitable, citeFiles, type FileOwner, foreignFileIds } from '../files/files.ts';
import {
  findIntakeSessionById,
  INTAKE_REPLAY_MINUTES,
  type IntakeSession,
} from '../intake/intake-sessions.ts';
import { caseHandlerCondition } from '../manager/case-scope.ts';
import { excludeAccusedFromNewCase } from '../manager/conflicts.ts';
import type { SessionUser } from '../sessions/sessions.ts';
import { caseReferenceCandidates } from './case-reference.ts';
import { assertPrivateContactEmail } from './private-contact.ts';
import { formatReceipt, issueReceipt } from './receipts.ts';
import { statsDimensions } from './stat-dimensions.ts';

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
    // The browser's clock at the last keystroke: a time a manager could line up with who was at a desk.
    stored.last_edit = null;
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
 * Who submits: a logged-in member for a named (brief, formal) report, or an anonymous draft's intake session.
 * An anonymous report is never submitted through an account, so nothing can join it to one.
 */
export type Submitter = { kind: 'account'; user: SessionUser } | { kind: 'intake'; intake: IntakeSession };

export interface SubmittedReport {
  id: string;
  created: boolean;
  /** An anonymous report's receipt, grouped `1234 5678 9012 3456`; shown once. */
  receipt?: string;
}

type Transaction = Parameters<Parameters<Database['db']['transaction']>[0]>[0];

/**
 * Files a report for the submitter's company. The report, its file citations, its first status row and the
 * mail telling the company's managers that a case arrived are written in one transaction. A named report's
 * idempotency key never makes a second report; an anonymous draft submits once, and a retry within the
 * replay window gets the same report and receipt.
 */
export async function submitReport(
  deps: Deps,
  submitter: Submitter,
  form: ReportForm,
  options: { idempotencyKey?: string; contactEmail?: string | null } = {},
): Promise<SubmittedReport> {
  const { database } = deps;
  const isAnonymous = form.report_type === 'anonym';
  if (isAnonymous !== (submitter.kind === 'intake')) {
    throw new AppError('VALIDATION_ERROR', {
      details: {
        report_type: isAnonymous
          ? '익명 신고는 익명 신고 작성 화면에서 제출해주세요.'
          : '약식·정식 신고는 로그인한 뒤 제출할 수 있습니다.',
      },
    });
  }
  if (submitter.kind === 'intake') return submitAnonymousReport(deps, submitter.intake, form, options);

  const reporter = submitter.user;
  if (!reporter.companyId) throw new AppError('NO_COMPANY');
  const companyId = reporter.companyId;
  const { idempotencyKey } = options;
  if (idempotencyKey) {
    const existing = await findByIdempotencyKey(database, reporter.id, idempotencyKey);
    if (existing) return { id: existing, created: false };
  }
  const stored = normalizeReporterForm(form);
  const fileIds = citedFileIds(stored);
  await assertOwnFiles(database, fileIds, { userId: reporter.id });
  await assertCitable(database, fileIds, { anonymous: false });
  const newId = randomUUID();
  const sealed = await sealReport(database, companyId, newId, stored);
  try {
    const inserted = await database.db.transaction(async (tx) => {
      const report = await insertReport(deps, tx, companyId, stored, sealed, fileIds, {
        id: newId,
        reporterId: reporter.id,
        idempotencyKey: idempotencyKey ?? null,
      });
      if (!report) throw new IdempotentReplay();
      return report;
    });
    if (inserted.notices > 0) wakeMailWorkers();
    return { id: inserted.reportId, created: true };
  } catch (error) {
    // Two requests with one key raced: the loser's transaction rolled back and the winner's report stands.
    if (error instanceof IdempotentReplay && idempotencyKey) {
      const existing = await findByIdempotencyKey(database, reporter.id, idempotencyKey);
      if (existing) return { id: existing, created: false };
    }
    throw error;
  }
}

async function submitAnonymousReport(
  deps: Deps,
  intake: IntakeSession,
  form: ReportForm,
  options: { contactEmail?: string | null },
): Promise<SubmittedReport> {
  const { database } = deps;
  if (intake.submittedAt) return replaySubmission(database, intake);
  const companyId = intake.companyId;
  const stored = normalizeReporterForm(form);
  const fileIds = citedFileIds(stored);
  await assertOwnFiles(database, fileIds, { intakeId: intake.id });
  await assertCitable(database, fileIds, { anonymous: true });
  if (options.contactEmail) await assertPrivateContactEmail(database, options.contactEmail);
  const reportId = randomUUID();
  const sealed = await sealReport(database, companyId, reportId, stored);
  const contactEmail = options.contactEmail
    ? await sealText(
        database,
        companyId,
        'reports.contact_email',
        reportId,
        options.contactEmail.trim().toLowerCase(),
      )
    : null;
  const { receipt, receiptHash } = await issueReceipt(database);
  const formatted = formatReceipt(receipt);
  const submission = await sealText(
    database,
    companyId,
    'intake_sessions.submission',
    intake.id,
    JSON.stringify({ id: reportId, receipt: formatted }),
  );
  const notices = await database.db
    .transaction(async (tx) => {
      // Only the draft that has not submitted yet: a concurrent retry finds it taken and waits for the replay.
      const [claimed] = await tx
        .update(intakeSessions)
        .set({
          submittedAt: new Date(),
          submission,
          expiresAt: new Date(Date.now() + INTAKE_REPLAY_MINUTES * 60_000),
        })
        .where(and(eq(intakeSessions.id, intake.id), isNull(intakeSessions.submittedAt)))
        .returning({ id: intakeSessions.id });
      if (!claimed) throw new IdempotentReplay();
      const report = await insertReport(deps, tx, companyId, stored, sealed, fileIds, {
        id: reportId,
        reporterId: null,
        idempotencyKey: null,
        receiptHash,
        contactEmail,
      });
      // The draft's cited files now belong to the report; its uncited ones go with the draft when it expires.
      if (fileIds.length > 0) {
        await tx
          .update(files)
          .set({ ownerIntakeId: null, ownerReportId: reportId })
          .where(inArray(files.id, fileIds));
      }
      return report?.notices ?? 0;
    })
    .catch(async (error: unknown) => {
      if (error instanceof IdempotentReplay) return 0;
      throw error;
    });
  if (notices > 0) wakeMailWorkers();
  const current = await findIntakeSessionById(database, intake.id);
  if (current.submission && current.submission !== submission) return replaySubmission(database, current);
  return { id: reportId, created: true, receipt: formatted };
}

async function replaySubmission(database: Database, intake: IntakeSession): Promise<SubmittedReport> {
  const { id, receipt } = JSON.parse(
    await openText(database, 'intake_sessions.submission', intake.id, intake.submission ?? ''),
  ) as { id: string; receipt: string };
  return { id, created: false, receipt };
}

async function assertOwnFiles(database: Database, fileIds: string[], owner: FileOwner): Promise<void> {
  const foreign = await foreignFileIds(database.db, fileIds, owner);
  if (foreign.length > 0) {
    throw new AppError('VALIDATION_ERROR', {
      details: { evidences: '본인이 올린 파일만 증거로 첨부할 수 있습니다.' },
    });
  }
}

/** Sealed before the transaction: a data key may have to be read or made first. */
async function sealReport(database: Database, companyId: string, reportId: string, stored: ReportForm) {
  const form = await sealJson(database, companyId, 'reports.form', reportId, stored);
  const accused = await sealWithIndex(
    database,
    companyId,
    'reports.accused_name',
    reportId,
    stored.perpetrator_name.trim(),
  );
  const accusedEmail = await sealWithIndex(
    database,
    companyId,
    'reports.accused_email',
    reportId,
    stored.perpetrator_email?.trim().toLowerCase() ?? '',
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
  // The platform key the new-case mails are sealed with, looked up now (and so remembered for a while) rather
  // than inside the transaction, where the company's case counter is already locked (decision 0024).
  await keyringOf(database).activeKey(null);
  return { form, accused, accusedEmail, measures };
}

const value = (name: string) => sql.placeholder(name);

/**
 * The report, its first status and the protective measures it asks for, in one statement, which also reads the
 * company's users of a handler role for the conflict-of-interest check; the company's deadlines are read by the
 * insert itself. Built once per process and named (decision 0024): its plan does not depend on its values. No row
 * when a named report's idempotency key was already taken.
 */
export const insertReportStatement = keptSql<{
  report_id: string;
  handlers: { id: string; name: string; email: string }[];
}>(
  () => sql`WITH report AS (
  INSERT INTO reports (id, company_id, reporter_id, report_type, case_number, form, idempotency_key, receipt_hash,
                       contact_email, accused_name, accused_name_index, accused_email, accused_email_index,
                       accused_department, relationship, ack_due_at, feedback_due_at)
  VALUES (${value('id')}, ${value('companyId')}, ${value('reporterId')}, ${value('reportType')}, ${value('pendingCaseNumber')},
          ${value('form')}, ${value('idempotencyKey')}, ${value('receiptHash')}, ${value('contactEmail')},
          ${value('accusedName')}, ${value('accusedNameIndex')}, ${value('accusedEmail')}, ${value('accusedEmailIndex')},
          ${value('accusedDepartment')}, ${value('relationship')},
          ${value('now')}::timestamptz + coalesce((SELECT ack_deadline_days FROM companies WHERE id = ${value('companyId')}), 7) * interval '1 day',
          ${value('now')}::timestamptz + coalesce((SELECT feedback_deadline_days FROM companies WHERE id = ${value('companyId')}), 90) * interval '1 day')
  ON CONFLICT (reporter_id, idempotency_key) DO NOTHING
  RETURNING id
), history AS (
  INSERT INTO report_status_history (report_id, actor_id, from_status, to_status)
  SELECT id, NULL, NULL, 'received' FROM report
), measures AS (
  INSERT INTO protective_measures (id, report_id, measure, detail, requested_by_reporter)
  SELECT m.id, report.id, m.measure, m.detail, true
    FROM report, unnest(${value('measureIds')}::uuid[], ${value('measures')}::text[], ${value('measureDetails')}::text[]) AS m(id, measure, detail)
)
SELECT report.id AS report_id,
       coalesce((SELECT json_agg(json_build_object('id', u.id, 'name', u.name, 'email', u.email))
                   FROM users u
                  WHERE u.company_id = ${value('companyId')} AND u.role IN (${sql.raw(HANDLER_ROLES.map((role) => `'${role}'`).join(', '))})), '[]') AS handlers
  FROM report`,
);

/**
 * The case reference, and who is to hear of the case, in one statement (decision 0024). The reference is the year
 * and six random Crockford base32 characters (decision 0030): the first of the candidates the company has not
 * used yet, so a reference says nothing of how many cases came before it or in between, and a handler who is
 * excluded from a case cannot find it as a gap. No counter row is locked: submissions of one company no longer
 * wait on each other; the unique (company_id, case_number) index is the guard.
 */
export const numberReportStatement = keptSql<{ case_number: string; handler_emails: string[] }>(
  () => sql`WITH chosen AS (
  SELECT candidate.reference
    FROM unnest(${value('candidates')}::text[]) WITH ORDINALITY AS candidate(reference, n)
   WHERE NOT EXISTS (SELECT 1 FROM reports taken
                      WHERE taken.company_id = ${value('companyId')} AND taken.case_number = candidate.reference)
   ORDER BY candidate.n
   LIMIT 1
), numbered AS (
  UPDATE reports SET case_number = chosen.reference
    FROM chosen WHERE reports.id = ${value('reportId')} RETURNING reports.case_number
)
SELECT numbered.case_number,
       (SELECT coalesce(array_agg(${users.email}), '{}') FROM ${users}
         WHERE ${caseHandlerCondition(value('companyId'), value('reportId'))}) AS handler_emails
  FROM numbered`,
);

/**
 * The report's rows in the caller's transaction, with how many new-case notices it queued (the mail worker is
 * woken only for those); null when a named report's idempotency key was taken.
 */
async function insertReport(
  { config }: Deps,
  tx: Transaction,
  companyId: string,
  stored: ReportForm,
  sealed: Awaited<ReturnType<typeof sealReport>>,
  fileIds: string[],
  row: {
    /** Made before sealing: every sealed value of the report is bound to it. */
    id: string;
    reporterId: string | null;
    idempotencyKey: string | null;
    receiptHash?: string;
    contactEmail?: string | null;
  },
): Promise<{ reportId: string; notices: number } | null> {
  const { rows: inserted } = await insertReportStatement(tx, {
    id: row.id,
    companyId,
    reporterId: row.reporterId,
    reportType: stored.report_type,
    // Numbered at the end of the transaction: see numberReportStatement.
    pendingCaseNumber: `pending-${randomUUID()}`,
    form: JSON.stringify(sealed.form),
    idempotencyKey: row.idempotencyKey,
    receiptHash: row.receiptHash ?? null,
    contactEmail: row.contactEmail ?? null,
    accusedName: sealed.accused.sealed,
    accusedNameIndex: sealed.accused.index,
    accusedEmail: sealed.accusedEmail.sealed,
    accusedEmailIndex: sealed.accusedEmail.index,
    ...statsDimensions(stored),
    now: new Date().toISOString(),
    measureIds: sealed.measures.map((measure) => measure.id),
    measures: sealed.measures.map((measure) => measure.measure),
    measureDetails: sealed.measures.map((measure) => measure.detail),
  });
  const report = inserted[0];
  if (!report) return null;
  const reportId = report.report_id;
  await citeFiles(tx, reportId, fileIds);
  // Before anyone is told of the case: a handler who is its accused person never hears of it.
  await excludeAccusedFromNewCase(
    tx,
    {
      companyId,
      reportId,
      accusedName: stored.perpetrator_name,
      accusedEmail: stored.perpetrator_email ?? null,
    },
    report.handlers,
  );
  const { rows: numbered } = await numberReportStatement(tx, {
    companyId,
    candidates: caseReferenceCandidates(new Date().getFullYear()),
    reportId,
  });
  // Every candidate taken: 8 draws from 2^30 each, so only a company with a billion cases in a year gets here.
  const reference = numbered[0];
  if (!reference) throw new Error('no free case reference among the candidates');
  const caseNumber = reference.case_number;
  const mail = newCaseMail({
    caseNumber,
    typeLabel: REPORT_TYPE_LABELS_KO[stored.report_type as 'anonym' | 'brief' | 'formal'],
    url: `${config.PUBLIC_URL}/manager/detail/${reportId}`,
  });
  const recipients = reference.handler_emails;
  await enqueueMails(
    tx,
    'new_case',
    recipients.map((to) => ({ to, mail })),
  );
  return { reportId, notices: recipients.length };
}
