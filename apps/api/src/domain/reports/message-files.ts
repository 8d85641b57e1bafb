import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { reportFiles } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { assertCitable, citeFiles, type FileOwner, foreignFileIds } from '../files/files.ts';

/**
 * Checks, before the message's transaction, that the files are the sender's own uploads and may be cited by
 * this case: the wizard's rules (one file, one report; an anonymous reporter's file whose metadata could not be
 * removed fails closed).
 */
export async function assertMessageFiles(
  database: Database,
  fileIds: string[],
  owner: FileOwner,
  options: Parameters<typeof assertCitable>[2],
): Promise<void> {
  if (fileIds.length === 0) return;
  const foreign = await foreignFileIds(database.db, fileIds, owner);
  if (foreign.length > 0) {
    throw new AppError('VALIDATION_ERROR', { details: { files: '본인이 올린 파일만 보낼 수 있습니다.' } });
  }
  await assertCitable(database, fileIds, options);
}

/** Cites a message's files on its case, after every file the case already cites. */
export async function citeMessageFiles(
  tx: Parameters<Parameters<Database['db']['transaction']>[0]>[0],
  reportId: string,
  messageId: string,
  fileIds: string[],
): Promise<void> {
  if (fileIds.length === 0) return;
  const [last] = await tx
    .select({ position: sql<number | null>`max(${reportFiles.position})` })
    .from(reportFiles)
    .where(eq(reportFiles.reportId, reportId));
  const firstPosition =
    last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1;
  await citeFiles(tx, reportId, fileIds, { messageId, firstPosition });
}
