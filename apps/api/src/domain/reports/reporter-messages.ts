import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { reportMessages, reports } from '../../db/schema.ts';
import { openText, sealText } from '../../encryption/codec.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { reporterMessageMail } from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import type { FileOwner } from '../files/files.ts';
import { caseHandlerEmails } from '../manager/case-scope.ts';
import { caseFiles, filesByMessage } from '../manager/case-view.ts';
import { announceCaseChange } from './case-events.ts';
import { assertMessageFiles, citeMessageFiles } from './message-files.ts';
import { findOwnReport, type ReporterAccess } from './reporter-reports.ts';

type Deps = { database: Database; config: Config };

/** The reporter writes on their own case; the managers are told a message arrived, never by whom. */
export async function postReporterMessage(
  { database, config }: Deps,
  access: ReporterAccess,
  reportId: string,
  input: { body: string; files?: string[] },
): Promise<void> {
  const report = await findOwnReport(database, access, reportId);
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
