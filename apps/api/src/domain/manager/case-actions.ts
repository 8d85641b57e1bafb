import { randomInt, randomUUID } from 'node:crypto';
import { type ReportStatus, STATUS_TRANSITIONS } from '@ansim/shared/constants';
import { PROTECTION_OPTIONS } from '@ansim/shared/report-form';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { protectiveMeasures, reportMessages, reportStatusHistory, reports, users } from '../../db/schema.ts';
import { openText, sealText } from '../../encryption/codec.ts';
import { AppError } from '../../lib/app-error.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import {
  ANONYMOUS_NOTICE_TEMPLATE,
  anonymousNoticeMail,
  caseUpdatedMail,
  reporterMessageMail,
} from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { announceCaseChange } from '../reports/case-events.ts';
import { findOwnReport, type ReporterAccess } from '../reports/reporter-reports.ts';
import type { ManagerContext } from './access.ts';
import { findCompanyReport } from './case-view.ts';

type Deps = { database: Database; config: Config };

const note = z.string().trim().max(5000, '5000자 이하로 입력해주세요.');

export const statusChangeBody = z.object({
  status: z.enum(['received', 'investigating', 'action_taken', 'closed', 'dismissed'], {
    error: '올바르지 않은 상태입니다.',
  }),
  note_for_reporter: note.default(''),
  internal_note: note.default(''),
});

export const messageBody = z.object({
  body: z
    .string({ error: '메시지를 입력해주세요.' })
    .trim()
    .min(1, '메시지를 입력해주세요.')
    .max(5000, '5000자 이하로 입력해주세요.'),
});

export const measureCreateBody = z.object({
  measure: z.enum(PROTECTION_OPTIONS, { error: '올바르지 않은 보호조치입니다.' }),
  detail: note.default(''),
});

export const measureUpdateBody = z
  .object({
    decision: z.enum(['pending', 'granted', 'refused']).optional(),
    reason: note.optional(),
    reporter_consent: z.boolean().nullable().optional(),
  })
  .refine((value) => value.decision !== 'refused' || (value.reason ?? '').length > 0, {
    path: ['reason'],
    message: '보호조치를 하지 않는 사유를 적어주세요.',
  })
  // An update that changes nothing is a client mistake, not an empty UPDATE for the database to refuse.
  .refine(
    (value) =>
      value.decision !== undefined || value.reason !== undefined || value.reporter_consent !== undefined,
    { path: ['decision'], message: '바꿀 내용(결정, 사유 또는 신고인 동의)을 보내주세요.' },
  );

const CLOSING: ReportStatus[] = ['closed', 'dismissed'];

/**
 * Moves a case one step along the procedure (DESIGN §3). Every change is a history row with who, when, from
 * and to; the reporter is mailed that something changed, and open manager pages hear of it live.
 */
export async function changeStatus(
  { database, config }: Deps,
  manager: ManagerContext,
  reportId: string,
  input: z.infer<typeof statusChangeBody>,
): Promise<void> {
  const report = await findCompanyReport(database, manager.companyId, reportId);
  if (!STATUS_TRANSITIONS[report.status].includes(input.status)) throw new AppError('INVALID_TRANSITION');
  const historyId = randomUUID();
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
        acknowledgedAt: report.acknowledgedAt ?? now,
        feedbackAt: report.feedbackAt ?? (input.note_for_reporter ? now : null),
        closedAt: CLOSING.includes(input.status) ? now : report.closedAt,
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
    });
    await recordAudit(tx, {
      companyId: manager.companyId,
      actorId: manager.userId,
      action: 'report.status',
      targetType: 'report',
      targetId: reportId,
    });
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
  body: string,
): Promise<void> {
  const report = await findCompanyReport(database, manager.companyId, reportId);
  const messageId = randomUUID();
  const sealedBody = await sealText(database, report.companyId, 'report_messages.body', messageId, body);
  const contact = await anonymousContact(database, report);
  await database.db.transaction(async (tx) => {
    await tx
      .insert(reportMessages)
      .values({ id: messageId, reportId, authorKind: 'manager', authorId: manager.userId, body: sealedBody });
    await tx
      .update(reports)
      .set({ updatedAt: new Date(), feedbackAt: report.feedbackAt ?? new Date() })
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

/** The reporter writes on their own case; the managers are told a message arrived, never by whom. */
export async function postReporterMessage(
  { database, config }: Deps,
  access: ReporterAccess,
  reportId: string,
  body: string,
): Promise<void> {
  const report = await findOwnReport(database, access, reportId);
  const messageId = randomUUID();
  const sealedBody = await sealText(database, report.companyId, 'report_messages.body', messageId, body);
  // An anonymous reporter's message names no author: no account id is ever stored with an anonymous case.
  const authorId = access.kind === 'account' && report.reportType !== 'anonym' ? access.userId : null;
  await database.db.transaction(async (tx) => {
    await tx
      .insert(reportMessages)
      .values({ id: messageId, reportId, authorKind: 'reporter', authorId, body: sealedBody });
    await tx.update(reports).set({ updatedAt: new Date() }).where(eq(reports.id, reportId));
    const managers = await tx
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.companyId, report.companyId), eq(users.role, 'manager')));
    for (const manager of managers) {
      await enqueueMail(
        tx,
        'reporter_message',
        manager.email,
        reporterMessageMail({
          caseNumber: report.caseNumber,
          url: `${config.PUBLIC_URL}/manager/detail/${report.id}`,
        }),
      );
    }
    await announceCaseChange(tx, reportId);
  });
  wakeMailWorkers();
}

/** Messages on the reporter's own case, as the reporter sees them. */
export async function listReporterMessages(database: Database, access: ReporterAccess, reportId: string) {
  await findOwnReport(database, access, reportId);
  const rows = await database.db
    .select()
    .from(reportMessages)
    .where(eq(reportMessages.reportId, reportId))
    .orderBy(reportMessages.createdAt);
  return Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      author_kind: row.authorKind,
      author_name: row.authorKind === 'reporter' ? '나' : '담당자',
      body: await openText(database, 'report_messages.body', row.id, row.body),
      created_at: row.createdAt.toISOString(),
    })),
  );
}

export async function addMeasure(
  { database }: Deps,
  manager: ManagerContext,
  reportId: string,
  input: z.infer<typeof measureCreateBody>,
): Promise<string> {
  await findCompanyReport(database, manager.companyId, reportId);
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
  await findCompanyReport(database, manager.companyId, reportId);
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
