import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { files, pendingReceipts, reportFiles, reportMessages, reports } from '../../db/schema.ts';
import { openText, sealText } from '../../encryption/codec.ts';
import { formatReceipt, issueReceipt } from './receipts.ts';

interface PendingReceipt {
  case_number: string;
  receipt: string;
  created_at: string;
}

/**
 * Anonymous reports filed before reports became unlinkable kept their reporter's account id, their messages
 * the author's id and their files the owner's (decision 0005). This cuts every one of those links, and gives
 * the reporter a receipt to find once after their next login: the only trace left of the link, sealed with
 * the platform key. Idempotent, and safe in several processes at once: a report is unlinked by whoever first
 * changes its row.
 */
export async function unlinkAnonymousReports(database: Database): Promise<number> {
  let unlinked = 0;
  for (;;) {
    const batch = await database.db
      .select({
        id: reports.id,
        reporterId: reports.reporterId,
        caseNumber: reports.caseNumber,
        createdAt: reports.createdAt,
      })
      .from(reports)
      .where(and(eq(reports.reportType, 'anonym'), isNotNull(reports.reporterId)))
      .limit(100);
    if (batch.length === 0) return unlinked;
    for (const report of batch) {
      const reporterId = report.reporterId!;
      const { receipt, receiptHash } = await issueReceipt(database);
      const payload: PendingReceipt = {
        case_number: report.caseNumber,
        receipt: formatReceipt(receipt),
        created_at: report.createdAt.toISOString(),
      };
      const pendingId = randomUUID();
      const sealed = await sealText(
        database,
        null,
        'pending_receipts.payload',
        pendingId,
        JSON.stringify(payload),
      );
      const changed = await database.db.transaction(async (tx) => {
        const [row] = await tx
          .update(reports)
          .set({ reporterId: null, idempotencyKey: null, receiptHash })
          .where(and(eq(reports.id, report.id), eq(reports.reporterId, reporterId)))
          .returning({ id: reports.id });
        if (!row) return false;
        await tx
          .update(reportMessages)
          .set({ authorId: null })
          .where(and(eq(reportMessages.reportId, report.id), eq(reportMessages.authorKind, 'reporter')));
        const cited = tx
          .select({ fileId: reportFiles.fileId })
          .from(reportFiles)
          .where(eq(reportFiles.reportId, report.id));
        await tx
          .update(files)
          .set({ ownerUserId: null, ownerReportId: report.id })
          .where(and(inArray(files.id, cited), eq(files.ownerUserId, reporterId)));
        await tx.insert(pendingReceipts).values({ id: pendingId, userId: reporterId, payload: sealed });
        return true;
      });
      if (changed) unlinked += 1;
    }
  }
}

/** Receipts waiting for this user, opened for the one time they are shown. */
export async function listPendingReceipts(database: Database, userId: string): Promise<PendingReceipt[]> {
  const rows = await database.db
    .select({ id: pendingReceipts.id, payload: pendingReceipts.payload })
    .from(pendingReceipts)
    .where(eq(pendingReceipts.userId, userId))
    .orderBy(pendingReceipts.createdAt);
  return Promise.all(
    rows.map(
      async (row) =>
        JSON.parse(
          await openText(database, 'pending_receipts.payload', row.id, row.payload),
        ) as PendingReceipt,
    ),
  );
}

/** The reporter has kept their receipts: the last link between the account and those reports goes. */
export async function dismissPendingReceipts(database: Database, userId: string): Promise<void> {
  await database.db.delete(pendingReceipts).where(eq(pendingReceipts.userId, userId));
}
