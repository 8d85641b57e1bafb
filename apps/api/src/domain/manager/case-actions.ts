import { randomInt, randomUUID } from 'node:crypto';
import { isReopening, type ReportStatus, STATUS_TRANSITIONS } from '@ansim/shared/constants';
import {
  grantLacksReason,
  measureCreateBody,
  measureUpdateBody,
  outcomeBody,
  statusChangeBody,
  statusChangeBodyFrom,
} from '@ansim/shared/contract/manager';
import { MESSAGE_FILES_MAX, messageBody } from '@ansim/shared/contract/report';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { protectiveMeasures, reportMessages, reportStatusHistory, reports, users } from '../../db/schema.ts';
import { openText, sealText } from '../../encryption/codec.ts';
import { AppError } from '../../lib/app-error.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { ANONYMOUS_NOTICE_TEMPLATE, anonymousNoticeMail, caseUpdatedMail } from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { announceCaseChange } from '../reports/case-events.ts';
import { assertMessageFiles, citeMessageFiles } from '../reports/message-files.ts';
import { assertCaseOpen, findCompanyReport, type ManagerContext } from './case-scope.ts';

type Deps = { database: Database; config: Config };

export { MESSAGE_FILES_MAX, messageBody };

const _note = z.string().trim().max(5000, '5000자 이하로 입력해주세요.');

export { measureCreateBody, measureUpdateBody, outcomeBody, statusChangeBody };

const CLOSING: ReportStatus[] = ['closed', 'dismissed'];

/**
 * Moves a case one step along the procedure (R-CASE-5). Every change is a history row with who, when, from
 * and to; the reporter is mailed that something changed, and open manager pages hear of it live.
 */
export async function changeStatus(
  { database, config }: Deps,
  manager: ManagerContext,
  reportId: string,
  input: z.infer<typeof statusChangeBody>,
): Promise<void> {
  const report = await findCompanyReport(database, manager, reportId);
  if (!STATUS_TRANSITIONS[report.status].includes(input.status)) {
    // An ended case gets no new outcome; any other wrong step is the usual conflict.
    if (input.outcome) assertCaseOpen(report);
    throw new AppError('INVALID_TRANSITION');
  }
  const reopening = isReopening(report.status, input.status);
  if (reopening && input.outcome) assertCaseOpen(report);
  // What this step needs from where the case stands: a reason to reopen, the outcome at the end of an
  // investigation (76-3 ⑤; statistics of findings and actions read it from here). The manager's dialog checks
  // the same schema before sending.
  const judged = statusChangeBodyFrom(report.status).safeParse(input);
  if (!judged.success) {
    const details: Record<string, string> = {};
    for (const issue of judged.error.issues) details[issue.path.join('.')] ??= issue.message;
    throw new AppError('VALIDATION_ERROR', { details });
  }
  const historyId = randomUUID();
  const outcomeSummary = input.outcome
    ? await sealText(database, report.companyId, 'reports.outcome_summary', reportId, input.outcome.summary)
    : undefined;
  const [noteForReporter, internalNote, contact] = await Promise.all([
    sealText(
      database,
      report.companyId,
      'report_status_history.note_for_reporter',
      historyId,
      input.note_for_reporter,
    ),
    sealText(
      database,
      report.companyId,
      'report_status_history.internal_note',
      historyId,
      input.internal_note,
    ),
    anonymousContact(database, report),
  ]);
  await database.db.transaction(async (tx) => {
    const now = new Date();
    const [updated] = await tx
      .update(reports)
      .set({
        status: input.status,
        updatedAt: now,
        // The first status change acknowledges the case; only feedback (a note marked so, or a recorded
        // outcome) meets the feedback deadline, never a mere status change (decision 0002).
        acknowledgedAt: report.acknowledgedAt ?? now,
        // A recorded outcome, or a note marked as feedback, is the feedback the law's deadline asks for.
        feedbackAt: report.feedbackAt ?? (input.is_feedback || input.outcome ? now : null),
        closedAt: CLOSING.includes(input.status) ? now : reopening ? null : report.closedAt,
        ...(input.outcome
          ? {
              outcomeFinding: input.outcome.finding,
              outcomeActions: input.outcome.actions,
              outcomeSummary,
              outcomeAt: now,
              outcomeBy: manager.userId,
            }
          : {}),
        // The private address serves an open case only: it goes when the case ends (its last notice is queued).
        ...(CLOSING.includes(input.status) ? { contactEmail: null } : {}),
      })
      // Only from the status this change was judged against: a concurrent change makes this one a conflict.
      .where(and(eq(reports.id, reportId), eq(reports.status, report.status)))
      .returning({ id: reports.id });
    if (!updated) throw new AppError('INVALID_TRANSITION');
    await tx.insert(reportStatusHistory).values({
      id: historyId,
      reportId,
      actorId: manager.userId,
      fromStatus: report.status,
      toStatus: input.status,
      noteForReporter,
      internalNote,
      isFeedback: input.is_feedback,
    });
    await recordAudit(tx, {
      companyId: manager.companyId,
      actorId: manager.userId,
      action: 'report.status',
      targetType: 'report',
      targetId: reportId,
      detail: { from: report.status, to: input.status },
    });
    if (input.outcome) {
      // The finding and actions are categories, not case content; the summary stays sealed on the report.
      await recordAudit(tx, {
        companyId: manager.companyId,
        actorId: manager.userId,
        action: 'case.outcome',
        targetType: 'report',
        targetId: reportId,
        detail: { finding: input.outcome.finding, actions: input.outcome.actions },
      });
    }
    if (reopening) {
      await recordAudit(tx, {
        companyId: manager.companyId,
        actorId: manager.userId,
        action: 'case.reopen',
        targetType: 'report',
        targetId: reportId,
        detail: { from: report.status },
      });
    }
    await mailReporter(tx, config, report, contact, 'status');
    await announceCaseChange(tx, reportId);
  });
  wakeMailWorkers();
}

/** An anonymous reporter's private address, opened before the transaction (the key lookup is a query). */
async function anonymousContact(
  database: Database,
  report: { id: string; reportType: string; contactEmail: string | null },
): Promise<string | null> {
  if (report.reportType !== 'anonym' || !report.contactEmail) return null;
  return openText(database, 'reports.contact_email', report.id, report.contactEmail);
}

/**
 * Tells the reporter that their case moved. A named report's reporter gets the usual mail at their account
 * address. Nothing about an anonymous case ever goes to an account address (the company may run that mail
 * server); only a content-free notice to the private address the reporter chose, after a random delay so
 * its time does not match the manager's action (decision 0005).
 */
async function mailReporter(
  tx: Parameters<Parameters<Database['db']['transaction']>[0]>[0],
  config: Config,
  report: { id: string; reporterId: string | null; caseNumber: string; reportType: string },
  anonymousContactEmail: string | null,
  what: 'status' | 'message',
) {
  if (report.reportType === 'anonym') {
    if (!anonymousContactEmail) return;
    const delaySeconds = randomInt(config.ANONYMOUS_NOTICE_DELAY_MAX_SECONDS + 1);
    await enqueueMail(
      tx,
      ANONYMOUS_NOTICE_TEMPLATE,
      anonymousContactEmail,
      anonymousNoticeMail({ receiptUrl: `${config.PUBLIC_URL}/receipt` }),
      { notBefore: new Date(Date.now() + delaySeconds * 1000) },
    );
    return;
  }
  if (!report.reporterId) return;
  const [reporter] = await tx
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, report.reporterId));
  if (!reporter) return;
  await enqueueMail(
    tx,
    'case_updated',
    reporter.email,
    caseUpdatedMail({
      caseNumber: report.caseNumber,
      url: `${config.PUBLIC_URL}/report-detail/${report.id}/`,
      what,
    }),
  );
}

export async function postManagerMessage(
  { database, config }: Deps,
  manager: ManagerContext,
  reportId: string,
  input: { body: string; files?: string[]; is_feedback?: boolean },
): Promise<void> {
  const report = await findCompanyReport(database, manager, reportId);
  const fileIds = input.files ?? [];
  // A handler's file reaches an anonymous reporter, so it must be one the cleaner vouched for: a document
  // with a remote picture or an INCLUDEPICTURE field to the employer's server would tell it when and where
  // the reporter opens it. Uploads are cleaned of metadata and external references alike (lib/strip-*).
  await assertMessageFiles(
    database,
    fileIds,
    { userId: manager.userId },
    { anonymous: report.reportType === 'anonym', refusal: 'FILE_NOT_NEUTRALISED' },
  );
  const messageId = randomUUID();
  const sealedBody = await sealText(
    database,
    report.companyId,
    'report_messages.body',
    messageId,
    input.body,
  );
  const contact = await anonymousContact(database, report);
  await database.db.transaction(async (tx) => {
    await tx.insert(reportMessages).values({
      id: messageId,
      reportId,
      authorKind: 'manager',
      authorId: manager.userId,
      body: sealedBody,
      isFeedback: input.is_feedback ?? false,
    });
    await citeMessageFiles(tx, reportId, messageId, fileIds);
    const now = new Date();
    // A message to the reporter acknowledges the case; only one marked as feedback meets the feedback deadline.
    await tx
      .update(reports)
      .set({
        updatedAt: now,
        acknowledgedAt: report.acknowledgedAt ?? now,
        feedbackAt: report.feedbackAt ?? (input.is_feedback ? now : null),
      })
      .where(eq(reports.id, reportId));
    await recordAudit(tx, {
      companyId: manager.companyId,
      actorId: manager.userId,
      action: 'message.create',
      targetType: 'report',
      targetId: reportId,
    });
    await mailReporter(tx, config, report, contact, 'message');
    await announceCaseChange(tx, reportId);
  });
  wakeMailWorkers();
}

export async function addMeasure(
  { database }: Deps,
  manager: ManagerContext,
  reportId: string,
  input: z.infer<typeof measureCreateBody>,
): Promise<string> {
  assertCaseOpen(await findCompanyReport(database, manager, reportId));
  const measureId = randomUUID();
  const detail = await sealText(
    database,
    manager.companyId,
    'protective_measures.detail',
    measureId,
    input.detail,
  );
  return database.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(protectiveMeasures)
      .values({ id: measureId, reportId, measure: input.measure, detail })
      .returning({ id: protectiveMeasures.id });
    await recordAudit(tx, {
      companyId: manager.companyId,
      actorId: manager.userId,
      action: 'measure.create',
      targetType: 'report',
      targetId: reportId,
    });
    await announceCaseChange(tx, reportId);
    return row!.id;
  });
}

export async function updateMeasure(
  { database }: Deps,
  manager: ManagerContext,
  reportId: string,
  measureId: string,
  input: z.infer<typeof measureUpdateBody>,
): Promise<void> {
  assertCaseOpen(await findCompanyReport(database, manager, reportId));
  const [current] = await database.db
    .select()
    .from(protectiveMeasures)
    .where(and(eq(protectiveMeasures.id, measureId), eq(protectiveMeasures.reportId, reportId)));
  if (!current) throw new AppError('NOT_FOUND');
  // The reporter's own answer is theirs to change: a handler cannot overwrite it (76-3 ④).
  if (input.reporter_consent !== undefined && current.reporterOpinionAt) {
    throw new AppError('VALIDATION_ERROR', {
      details: { reporter_consent: '신고인이 직접 밝힌 의견은 담당자가 바꿀 수 없습니다.' },
    });
  }
  // A measure must not go against the victim's will (76-3 ④): carried out despite an objection, the reason is
  // on record first (the rule the manager's dialog checks too). The recorded reason matters only to a grant
  // sent without one.
  const recorded = {
    reporter_consent: current.reporterConsent,
    reason:
      input.decision === 'granted' && input.reason === undefined
        ? await openText(database, 'protective_measures.reason', current.id, current.reason)
        : '',
  };
  if (grantLacksReason(recorded, input)) throw new AppError('MEASURE_OBJECTED');
  const reason =
    input.reason === undefined
      ? undefined
      : await sealText(database, manager.companyId, 'protective_measures.reason', measureId, input.reason);
  await database.db.transaction(async (tx) => {
    const decided = input.decision === 'granted' || input.decision === 'refused';
    const [row] = await tx
      .update(protectiveMeasures)
      .set({
        ...(input.decision ? { decision: input.decision } : {}),
        ...(reason !== undefined ? { reason } : {}),
        ...(input.reporter_consent !== undefined ? { reporterConsent: input.reporter_consent } : {}),
        ...(input.decision
          ? { decidedAt: decided ? new Date() : null, decidedBy: decided ? manager.userId : null }
          : {}),
      })
      .where(and(eq(protectiveMeasures.id, measureId), eq(protectiveMeasures.reportId, reportId)))
      .returning({ id: protectiveMeasures.id });
    if (!row) throw new AppError('NOT_FOUND');
    await recordAudit(tx, {
      companyId: manager.companyId,
      actorId: manager.userId,
      action: 'measure.update',
      targetType: 'report',
      targetId: reportId,
    });
    await announceCaseChange(tx, reportId);
  });
}
