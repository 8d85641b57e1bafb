import { randomUUID } from 'node:crypto';
import { MESSAGE_RATE_LIMITED_KO } from '@ansim/shared/messages.ko';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { reportMessages, reports } from '../../db/schema.ts';
import { openText, sealText } from '../../encryption/codec.ts';
import { AppError } from '../../lib/app-error.ts';
import { hmacHex } from '../../lib/tokens.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { reporterMessageMail } from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import type { FileOwner } from '../files/files.ts';
import { caseHandlerEmails } from '../manager/case-scope.ts';
import { caseFiles, filesByMessage } from '../manager/case-view.ts';
import { countHit, secondsLeftInWindow } from '../rate-limits/rate-limits.ts';
import { announceCaseChange } from './case-events.ts';
import { assertMessageFiles, citeMessageFiles } from './message-files.ts';
import { findOwnReport, type ReporterAccess } from './reporter-reports.ts';

type Deps = { database: Database; config: Config };

/**
 * Messages one caller may post on one case in MESSAGE_WINDOW_SECONDS. Each message mails every handler and
 * pushes the case to every open stream; a receipt session needs only a public intake link and one captcha, so
 * without a limit one person could mail every handler forty times in ten seconds (docs/decisions/0031).
 */
export const MESSAGES_PER_CASE_AND_CALLER = 10;
export const MESSAGE_WINDOW_SECONDS = 600;

/**
 * Counts this message against the caller's budget on the case. The key is an HMAC, so the counter table never
 * joins an account to a case; every receipt session of a case shares the case's one budget.
 */
async function claimMessage(database: Database, config: Config, access: ReporterAccess, reportId: string) {
  const caller = access.kind === 'account' ? `account:${access.userId}` : 'receipt';
  const key = `report-message:${hmacHex(config.SECRET_KEY, `${reportId}:${caller}`)}`;
  if ((await countHit(database, key, MESSAGE_WINDOW_SECONDS)) > MESSAGES_PER_CASE_AND_CALLER) {
    throw new AppError('RATE_LIMITED', {
      message: MESSAGE_RATE_LIMITED_KO,
      headers: { 'Retry-After': String(secondsLeftInWindow(MESSAGE_WINDOW_SECONDS)) },
    });
  }
}

/** The reporter writes on their own case; the managers are told a message arrived, never by whom. */
export async function postReporterMessage(
  { database, config }: Deps,
  access: ReporterAccess,
  reportId: string,
  input: { body: string; files?: string[] },
): Promise<void> {
  const report = await findOwnReport(database, access, reportId);
  await claimMessage(database, config, access, reportId);
  const fileIds = input.files ?? [];
  // A receipt holder's uploads belong to the report itself (decision 0005), an account holder's to the account.
  const owner: FileOwner = access.kind === 'receipt' ? { reportId } : { userId: access.userId };
  await assertMessageFiles(database, fileIds, owner, { anonymous: report.reportType === 'anonym' });
  const messageId = randomUUID();
  const sealedBody = await sealText(
    database,
    report.companyId,
    'report_messages.body',
    messageId,
    input.body,
  );
  // An anonymous reporter's message names no author: no account id is ever stored with an anonymous case.
  const authorId = access.kind === 'account' && report.reportType !== 'anonym' ? access.userId : null;
  await database.db.transaction(async (tx) => {
    await tx
      .insert(reportMessages)
      .values({ id: messageId, reportId, authorKind: 'reporter', authorId, body: sealedBody });
    await citeMessageFiles(tx, reportId, messageId, fileIds);
    await tx.update(reports).set({ updatedAt: new Date() }).where(eq(reports.id, reportId));
    for (const email of await caseHandlerEmails(tx, report.companyId, report.id)) {
      await enqueueMail(
        tx,
        'reporter_message',
        email,
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
  const report = await findOwnReport(database, access, reportId);
  const rows = await database.db
    .select()
    .from(reportMessages)
    .where(eq(reportMessages.reportId, reportId))
    .orderBy(reportMessages.createdAt);
  // The same names as the handlers see, so both sides can speak of "증거자료-3" in an anonymous case.
  const messageFiles = filesByMessage(await caseFiles(database, report));
  return Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      author_kind: row.authorKind,
      author_name: row.authorKind === 'reporter' ? '나' : '담당자',
      body: await openText(database, 'report_messages.body', row.id, row.body),
      created_at: row.createdAt.toISOString(),
      files: (messageFiles.get(row.id) ?? []).map(({ id, name, size, content_type }) => ({
        id,
        name,
        size,
        content_type,
      })),
    })),
  );
}
