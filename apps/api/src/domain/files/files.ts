import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isHandlerRole } from '@ansim/shared/constants';
import type { FileView } from '@ansim/shared/contract/file';
import { FIELD_MESSAGES_KO } from '@ansim/shared/messages.ko';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import {
  files,
  intakeSessions,
  invitations,
  reportFiles,
  reports,
  statements,
  users,
} from '../../db/schema.ts';
import { ERASED_PLACEHOLDER, openJson, openText, openTextOr, sealText } from '../../encryption/codec.ts';
import { AppError } from '../../lib/app-error.ts';
import { QueueWaitExpired } from '../../lib/fair-queue.ts';
import type { MetadataOutcome } from '../../lib/metadata-outcome.ts';
import { outcomeWithoutReading, removeMetadata } from '../../lib/remove-metadata.ts';
import { cleanFileName, sniffContentType } from '../../lib/sniff.ts';
import type { EncryptingFileStore } from '../../storage/encrypting-file-store.ts';
import { caseAccessCondition } from '../manager/case-scope.ts';
import { caseFiles } from '../manager/case-view.ts';
import { hasSecondFactor } from '../mfa/factors.ts';
import { FILE_STORE_LOCK_KEY } from './sweep-orphans.ts';
import { chargeUploadAttempt, chargeUploadBytes, type UploadClient, uploadCaller } from './upload-limits.ts';

type Deps = { database: Database; config: Config; fileStore: EncryptingFileStore };

export type { FileView };

type FileRow = typeof files.$inferSelect;

/**
 * An error from parsing the request's multipart body (busboy throws plain errors for a missing boundary or a
 * body cut off mid-part) is the client's doing: 400, not 500. Our own errors, @fastify/multipart's limit
 * errors (FST_… codes, mapped to 413) and system errors of the disk (they carry a `syscall`) pass through.
 */
export function asUploadError(error: unknown, maxFileBytes?: number): unknown {
  if (error instanceof AppError || !(error instanceof Error)) return error;
  const { code, syscall } = error as Error & { code?: unknown; syscall?: unknown };
  if (code === 'FST_REQ_FILE_TOO_LARGE' && maxFileBytes !== undefined) return fileTooLarge(maxFileBytes);
  if ((typeof code === 'string' && code.startsWith('FST_')) || syscall !== undefined) return error;
  return new AppError('VALIDATION_ERROR', { details: { file: FIELD_MESSAGES_KO.uploadMalformed } });
}

/** 413 naming the limit, so the reporter knows what size of file would go through. */
export function fileTooLarge(maxFileBytes: number): AppError {
  const megabytes = Math.floor(maxFileBytes / (1024 * 1024));
  const limit = megabytes >= 1 ? `${megabytes} MB` : `${Math.floor(maxFileBytes / 1024)} KB`;
  return new AppError('PAYLOAD_TOO_LARGE', {
    message: `파일이 너무 큽니다. 파일 하나는 ${limit}까지 올릴 수 있습니다.`,
  });
}

/** The uploaded name, opened; after crypto-erase a list still shows the file, under a neutral name. */
export async function toFileView(database: Database, row: FileRow): Promise<FileView> {
  return {
    id: row.id,
    name: await openTextOr(database, 'files.original_name', row.id, row.originalName, ERASED_PLACEHOLDER),
    size: row.size,
    content_type: row.contentType,
    // The owner's own file: its digest opened for them (sealed at rest, docs/decisions/0029).
    sha256: await openTextOr(database, 'files.sha256', row.id, row.sha256, ''),
    created_at: row.createdAt.toISOString(),
    metadata: row.metadataStatus,
  };
}

async function sha256OfFile(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(filePath), hash);
  return hash.digest('hex');
}

/**
 * Stores one uploaded file for its owner. The bytes go to a temporary file first; only a complete, allowed,
 * metadata-stripped file within the owner's quota is moved into the store and recorded. Any failure removes
 * the temporary file, and a failed database insert removes the stored bytes: no orphan either way.
 */
/**
 * Who owns an uploaded file: an account, an invitee, an anonymous draft (intake session) or, once submitted,
 * an anonymous report. Anonymous files never have an account owner (docs/decisions/0005).
 */
export type FileOwner =
  | { userId: string }
  | { invitationId: string }
  | { intakeId: string }
  | { reportId: string };

export function ownedBy(owner: FileOwner) {
  if ('userId' in owner) return eq(files.ownerUserId, owner.userId);
  if ('invitationId' in owner) return eq(files.ownerInvitationId, owner.invitationId);
  if ('intakeId' in owner) return eq(files.ownerIntakeId, owner.intakeId);
  return eq(files.ownerReportId, owner.reportId);
}

function ownerColumns(owner: FileOwner) {
  return {
    ownerUserId: 'userId' in owner ? owner.userId : null,
    ownerInvitationId: 'invitationId' in owner ? owner.invitationId : null,
    ownerIntakeId: 'intakeId' in owner ? owner.intakeId : null,
    ownerReportId: 'reportId' in owner ? owner.reportId : null,
  };
}

export async function storeUpload(
  { database, config, fileStore }: Deps,
  owner: FileOwner,
  upload: { stream: Readable & { truncated?: boolean }; filename: string | undefined },
  client: UploadClient,
): Promise<FileView> {
  try {
    await chargeUploadAttempt(database, config, owner, client);
  } catch (error) {
    // The refused body is read and dropped, so that the answer reaches a client still sending it.
    upload.stream.resume();
    throw error;
  }
  const temporaryPath = await fileStore.temporaryPath();
  let sealedPath: string | undefined;
  let key: string | undefined;
  try {
    await pipeline(upload.stream, createWriteStream(temporaryPath, { flags: 'wx' })).catch((error) => {
      throw asUploadError(error, config.MAX_FILE_BYTES);
    });
    if (upload.stream.truncated) throw fileTooLarge(config.MAX_FILE_BYTES);
    await chargeUploadBytes(database, config, owner, client, (await fs.stat(temporaryPath)).size);
    const name = cleanFileName(upload.filename);
    const contentType = await sniffContentType(temporaryPath, name);
    if (!contentType)
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', {
        message: '증거 파일은 사진, PDF, 녹음·영상, 문서(한글·오피스), 텍스트 파일만 올릴 수 있습니다.',
      });
    const keyScope = await ownerCompanyId(database, owner);
    const metadataStatus = await removeMetadataOfUpload(config, temporaryPath, contentType, {
      group: keyScope ?? 'platform',
      caller: uploadCaller(owner),
    });
    const { size } = await fs.stat(temporaryPath);
    if (size === 0)
      throw new AppError('VALIDATION_ERROR', { details: { file: '빈 파일은 올릴 수 없습니다.' } });
    const [usage] = await database.db
      .select({ total: sql<number>`coalesce(sum(${files.size}), 0)::bigint` })
      .from(files)
      .where(ownedBy(owner));
    if (Number(usage?.total ?? 0) + size > config.MAX_USER_FILES_BYTES) {
      throw new AppError('PAYLOAD_TOO_LARGE', {
        message: '올릴 수 있는 전체 파일 용량을 넘었습니다. 사용하지 않는 파일을 삭제해주세요.',
      });
    }
    const sha256 = await sha256OfFile(temporaryPath);
    const fileId = randomUUID();
    const sealedName = await sealText(database, keyScope, 'files.original_name', fileId, name);
    const sealedDigest = await sealText(database, keyScope, 'files.sha256', fileId, sha256);
    sealedPath = await fileStore.seal(temporaryPath, { keyScope, fileId });
    // Bytes and row appear under the sweep's lock: a process killed between the two leaves bytes the sweep
    // knows are orphaned (sweep-orphans.ts), while a live upload's bytes are never taken for orphans.
    const row = await database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock_shared(${FILE_STORE_LOCK_KEY})`);
      key = await fileStore.commit(sealedPath!);
      const [inserted] = await tx
        .insert(files)
        .values({
          id: fileId,
          ...ownerColumns(owner),
          metadataStatus,
          originalName: sealedName,
          size,
          contentType,
          storageKey: key,
          sha256: sealedDigest,
        })
        .returning();
      return inserted!;
    });
    return toFileView(database, row);
  } catch (error) {
    await fs.rm(temporaryPath, { force: true });
    if (sealedPath && !key) await fileStore.discardSealed(sealedPath);
    if (key) await fileStore.remove(key);
    throw error;
  }
}

/**
 * Replaces the upload's bytes with their metadata-free version, in a worker (lib/remove-metadata.ts), and
 * says what became of the metadata. An `unremovable` file stays as uploaded: it can back a named report,
 * never an anonymous one. Uploads wait for a worker in turn by company and caller (`fairness`); one that
 * waits past METADATA_WAIT_MS is 503 UPLOAD_BUSY, to be sent again after Retry-After.
 */
export async function removeMetadataOfUpload(
  config: Pick<Config, 'METADATA_TIMEOUT_MS' | 'METADATA_WAIT_MS'>,
  filePath: string,
  contentType: string,
  fairness: { group: string; caller: string } = { group: '', caller: '' },
): Promise<MetadataOutcome> {
  const settled = outcomeWithoutReading(contentType);
  if (settled) return settled;
  const original = await fs.readFile(filePath);
  const { outcome, output } = await removeMetadata(contentType, original, {
    timeoutMs: config.METADATA_TIMEOUT_MS,
    waitMs: config.METADATA_WAIT_MS,
    fairness,
  }).catch((error: unknown) => {
    if (!(error instanceof QueueWaitExpired)) throw error;
    // A worker frees within its time limit at the latest.
    const retryAfter = Math.max(1, Math.ceil(config.METADATA_TIMEOUT_MS / 1000));
    throw new AppError('UPLOAD_BUSY', { headers: { 'Retry-After': String(retryAfter) } });
  });
  if (outcome === 'removed' && !output.equals(original)) await fs.writeFile(filePath, output);
  return outcome;
}

/** The company whose data key encrypts the owner's files; null (the platform key) for a user of none yet. */
async function ownerCompanyId(database: Database, owner: FileOwner): Promise<string | null> {
  const { db } = database;
  const [row] =
    'userId' in owner
      ? await db.select({ companyId: users.companyId }).from(users).where(eq(users.id, owner.userId))
      : 'invitationId' in owner
        ? await db
            .select({ companyId: reports.companyId })
            .from(invitations)
            .innerJoin(reports, eq(reports.id, invitations.reportId))
            .where(eq(invitations.id, owner.invitationId))
        : 'intakeId' in owner
          ? await db
              .select({ companyId: intakeSessions.companyId })
              .from(intakeSessions)
              .where(eq(intakeSessions.id, owner.intakeId))
          : await db
              .select({ companyId: reports.companyId })
              .from(reports)
              .where(eq(reports.id, owner.reportId));
  return row?.companyId ?? null;
}

export async function listOwnFiles(database: Database, owner: FileOwner): Promise<FileView[]> {
  const rows = await database.db.select().from(files).where(ownedBy(owner)).orderBy(desc(files.createdAt));
  return Promise.all(rows.map((row) => toFileView(database, row)));
}

export type FileCaller =
  | { kind: 'user'; id: string; role: string; companyId: string | null }
  /** The holder of an anonymous report's receipt: that report's files, nothing else. */
  | { kind: 'receipt'; reportId: string }
  /** An anonymous draft: its own uploads. */
  | { kind: 'intake'; id: string }
  | {
      kind: 'invitation';
      id: string;
      reportId: string;
      shareEvidence: boolean;
      invitationKind: 'defendant' | 'reference';
    };

/**
 * The file if the caller may read it, else the same 404 as for a file that does not exist:
 * - its owner (a user or an invitation);
 * - a manager of the company whose case cites it, or whose case's invitee uploaded it;
 * - the accused person, for the evidence of the acts of their case, when the manager chose to share it.
 * Evidence of an anonymous case reaches managers and the accused under a generic name, since an uploaded
 * file name can identify the reporter.
 */
export async function findReadableFile(
  database: Database,
  fileId: string,
  caller: FileCaller,
): Promise<{ file: FileRow; downloadName: string; asManagerOf?: { companyId: string; reportId: string } }> {
  const [row] = await database.db.select().from(files).where(eq(files.id, fileId));
  if (!row) throw new AppError('NOT_FOUND');
  // Opened only for a caller allowed the file (below); after crypto-erase, 410 like the file's bytes.
  const originalName = () => openText(database, 'files.original_name', row.id, row.originalName);
  if (caller.kind === 'user' && row.ownerUserId === caller.id)
    return { file: row, downloadName: await originalName() };
  if (caller.kind === 'user') {
    // The reporter of a named case reads every file of their case's conversation, the handlers' too. An
    // anonymous case has no account linked (decision 0005): its reporter reads through the receipt.
    const [ownCase] = await database.db
      .select({ id: reports.id })
      .from(reportFiles)
      .innerJoin(reports, eq(reports.id, reportFiles.reportId))
      .where(and(eq(reportFiles.fileId, fileId), eq(reports.reporterId, caller.id)))
      .limit(1);
    if (ownCase) return { file: row, downloadName: await originalName() };
  }
  if (caller.kind === 'invitation' && row.ownerInvitationId === caller.id)
    return { file: row, downloadName: await originalName() };
  if (caller.kind === 'intake') {
    if (row.ownerIntakeId === caller.id) return { file: row, downloadName: await originalName() };
    throw new AppError('NOT_FOUND');
  }
  if (caller.kind === 'receipt') {
    if (row.ownerReportId === caller.reportId) return { file: row, downloadName: await originalName() };
    const [cited] = await database.db
      .select({ reportId: reportFiles.reportId })
      .from(reportFiles)
      .where(and(eq(reportFiles.fileId, fileId), eq(reportFiles.reportId, caller.reportId)));
    if (cited) return { file: row, downloadName: await originalName() };
    throw new AppError('NOT_FOUND');
  }
  if (caller.kind === 'invitation') {
    // A file whose metadata could not be removed may still name the reporter: never shared with the accused.
    if (
      caller.invitationKind === 'defendant' &&
      caller.shareEvidence &&
      row.metadataStatus !== 'unremovable'
    ) {
      // Shared means the evidence of the acts, as the invitation page lists it: never the evidence of the
      // harm the reporter suffered (medical records, counselling notes), which the report also cites.
      const [cited] = await database.db
        .select({ form: reports.form })
        .from(reportFiles)
        .innerJoin(reports, eq(reports.id, reportFiles.reportId))
        .where(and(eq(reportFiles.fileId, fileId), eq(reportFiles.reportId, caller.reportId)));
      const form = cited
        ? await openJson<{ acts?: { evidences?: string[] | null }[] }>(
            database,
            'reports.form',
            caller.reportId,
            cited.form,
          )
        : undefined;
      if (form?.acts?.some((act) => act.evidences?.includes(fileId)))
        return { file: row, downloadName: `증거자료${path.extname(await originalName()).toLowerCase()}` };
    }
    throw new AppError('NOT_FOUND');
  }
  if (isHandlerRole(caller.role) && caller.companyId) {
    // The same rules as every manager route: case evidence needs a second factor, and only the cases the
    // handler may see (assigned to an investigator, none they are excluded from) open their files.
    if (!(await hasSecondFactor(database.db, caller.id))) throw new AppError('MFA_ENROLLMENT_REQUIRED');
    const handler = { userId: caller.id, name: '', companyId: caller.companyId, role: caller.role };
    const [cited] = await database.db
      .select({ id: reports.id, reportType: reports.reportType })
      .from(reportFiles)
      .innerJoin(reports, eq(reports.id, reportFiles.reportId))
      .where(and(eq(reportFiles.fileId, fileId), caseAccessCondition(handler)))
      .limit(1);
    if (cited) {
      const listed = await caseFiles(database, cited);
      const name = listed.find((file) => file.id === fileId)?.name ?? (await originalName());
      return {
        file: row,
        downloadName: name,
        asManagerOf: { companyId: caller.companyId, reportId: cited.id },
      };
    }
    if (row.ownerInvitationId) {
      const [statementOf] = await database.db
        .select({ reportId: invitations.reportId })
        .from(invitations)
        .innerJoin(reports, eq(reports.id, invitations.reportId))
        .where(and(eq(invitations.id, row.ownerInvitationId), caseAccessCondition(handler)));
      if (statementOf) {
        return {
          file: row,
          downloadName: await originalName(),
          asManagerOf: { companyId: caller.companyId, reportId: statementOf.reportId },
        };
      }
    }
  }
  throw new AppError('NOT_FOUND');
}

export async function deleteOwnFile(
  { database, fileStore }: Pick<Deps, 'database' | 'fileStore'>,
  fileId: string,
  owner: FileOwner,
): Promise<void> {
  // Statements are sealed, so whether one cites the file is read here, before the transaction.
  if ('invitationId' in owner) {
    const rows = await database.db
      .select({ id: statements.id, form: statements.form })
      .from(statements)
      .where(eq(statements.invitationId, owner.invitationId));
    for (const row of rows) {
      const form = await openJson<unknown>(database, 'statements.form', row.id, row.form);
      if (JSON.stringify(form).includes(fileId)) throw new AppError('FILE_IN_USE');
    }
  }
  const storageKey = await database.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ storageKey: files.storageKey })
      .from(files)
      .where(and(eq(files.id, fileId), ownedBy(owner)))
      .for('update');
    if (!row) throw new AppError('NOT_FOUND');
    const [cited] = await tx
      .select({ reportId: reportFiles.reportId })
      .from(reportFiles)
      .where(eq(reportFiles.fileId, fileId))
      .limit(1);
    if (cited) throw new AppError('FILE_IN_USE');
    await tx.delete(files).where(eq(files.id, fileId));
    return row.storageKey;
  });
  await fileStore.remove(storageKey);
}

/** Ids among `fileIds` that are not the owner's own files. */
export async function foreignFileIds(
  executor: Pick<Database['db'], 'select'>,
  fileIds: string[],
  owner: FileOwner,
): Promise<string[]> {
  if (fileIds.length === 0) return [];
  const owned = await executor
    .select({ id: files.id })
    .from(files)
    .where(and(inArray(files.id, fileIds), ownedBy(owner)));
  const ownedIds = new Set(owned.map((row) => row.id));
  return fileIds.filter((id) => !ownedIds.has(id));
}

/** True for the error PostgreSQL (or PGlite) raises when a file is cited by a second report. */
function isSecondCitation(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = (cause as Error & { cause?: unknown }).cause) {
    const { code, constraint } = cause as Error & { code?: unknown; constraint?: unknown };
    if (code === '23505')
      return constraint === 'report_files_one_report_key' || cause.message.includes('report_files_one');
  }
  return false;
}

/**
 * Checks, before a transaction, that these files may be cited: none is cited by a report already (one file,
 * one report: the same bytes in an anonymous and a named report would name the reporter), and for an
 * anonymous report none kept metadata that could not be removed (fail closed).
 */
export async function assertCitable(
  database: Database,
  fileIds: string[],
  options: { anonymous: boolean; refusal?: 'FILE_METADATA_UNREMOVABLE' | 'FILE_NOT_NEUTRALISED' },
): Promise<void> {
  if (fileIds.length === 0) return;
  const [cited] = await database.db
    .select({ fileId: reportFiles.fileId })
    .from(reportFiles)
    .where(inArray(reportFiles.fileId, fileIds))
    .limit(1);
  if (cited) throw new AppError('FILE_IN_USE', { message: FILE_CITED_ELSEWHERE });
  if (options.anonymous) {
    const unremovable = await database.db
      .select({ id: files.id })
      .from(files)
      .where(and(inArray(files.id, fileIds), eq(files.metadataStatus, 'unremovable')));
    if (unremovable.length > 0) {
      throw new AppError(options.refusal ?? 'FILE_METADATA_UNREMOVABLE', {
        details: Object.fromEntries(unremovable.map((row) => [`evidences.${row.id}`, ''])),
      });
    }
  }
}

const FILE_CITED_ELSEWHERE =
  '이미 다른 신고에 첨부된 파일입니다. 파일 하나는 한 신고에만 첨부할 수 있습니다.';

/**
 * Records the citations inside the report's transaction; a race with another report is 409 FILE_IN_USE.
 * Files sent with a message later follow the report's own (`firstPosition`), so the generic names of an
 * anonymous case's earlier files never shift.
 */
export async function citeFiles(
  tx: Pick<Database['db'], 'insert'>,
  reportId: string,
  fileIds: string[],
  options: { messageId?: string; firstPosition?: number } = {},
): Promise<void> {
  if (fileIds.length === 0) return;
  const first = options.firstPosition ?? 0;
  const messageId = options.messageId ?? null;
  try {
    await tx
      .insert(reportFiles)
      .values(fileIds.map((fileId, index) => ({ reportId, fileId, position: first + index, messageId })));
  } catch (error) {
    if (isSecondCitation(error)) throw new AppError('FILE_IN_USE', { message: FILE_CITED_ELSEWHERE });
    throw error;
  }
}
