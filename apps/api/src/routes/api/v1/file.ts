import { streamedResponse } from '@ansim/shared/contract/common';
import { fileViewSchema as fileView, reportFilesQuery } from '@ansim/shared/contract/file';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../../domain/audit/record-audit.ts';
import {
  asUploadError,
  deleteOwnFile,
  type FileCaller,
  findReadableFile,
  listOwnFiles,
  storeUpload,
} from '../../../domain/files/files.ts';
import { AppError } from '../../../lib/app-error.ts';
import { fileCaller, fileReaders, loadInvitee } from '../../../plugins/invitee.ts';
import { visitorDigest } from '../../../plugins/rate-limit.ts';
import { errorResponses, idParam } from '../../schemas.ts';

/** RFC 6266 / 5987: an ASCII fallback name plus the exact UTF-8 name, so Korean names survive every browser. */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.post(
    '/api/v1/file/',
    {
      schema: {
        tags: ['file'],
        consumes: ['multipart/form-data'],
        querystring: reportFilesQuery,
        response: { 201: fileView, ...errorResponses },
      },
      preHandler: loadInvitee,
    },
    async (request, reply) => {
      const { owner } = await fileCaller(request, { reportId: request.query.report_id });
      const upload = await request.file().catch((error: unknown) => {
        throw asUploadError(error, deps.config.MAX_FILE_BYTES);
      });
      if (!upload) throw new AppError('VALIDATION_ERROR', { details: { file: '올릴 파일을 선택해주세요.' } });
      const view = await storeUpload(
        deps,
        owner,
        { stream: upload.file, filename: upload.filename },
        { addressKey: request.visitorKey, keyed: visitorDigest },
      );
      return reply.status(201).send(view);
    },
  );

  app.get(
    '/api/v1/file/',
    {
      schema: {
        tags: ['file'],
        querystring: reportFilesQuery,
        response: { 200: z.array(fileView), ...errorResponses },
      },
      preHandler: loadInvitee,
    },
    async (request) => {
      const { owner } = await fileCaller(request, { reportId: request.query.report_id });
      return listOwnFiles(deps.database, owner);
    },
  );

  app.get(
    '/api/v1/file/:id/',
    {
      schema: {
        tags: ['file'],
        params: idParam,
        response: {
          200: streamedResponse(
            'application/octet-stream',
            'The file as an attachment, with its stored Content-Type (one of the evidence types)',
            'binary',
          ),
          ...errorResponses,
        },
      },
      preHandler: loadInvitee,
    },
    async (request, reply) => {
      let found: Awaited<ReturnType<typeof findReadableFile>> | undefined;
      let caller: FileCaller | undefined;
      for (const reader of await fileReaders(request)) {
        found = await findReadableFile(deps.database, request.params.id, reader).catch((error: unknown) => {
          if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
          throw error;
        });
        caller = reader;
        if (found) break;
      }
      if (!found || !caller) throw new AppError('NOT_FOUND');
      const { file, downloadName, asManagerOf } = found;
      if (asManagerOf && caller.kind === 'user') {
        await recordAudit(deps.database.db, {
          companyId: asManagerOf.companyId,
          actorId: caller.id,
          action: 'file.download',
          targetType: 'report',
          targetId: asManagerOf.reportId,
        });
      }
      reply.header('Content-Type', file.contentType);
      reply.header('Content-Length', String(file.size));
      reply.header('Content-Disposition', contentDisposition(downloadName));
      // A downloaded file is never run as a page of ours, whatever it contains.
      reply.header('Content-Security-Policy', "default-src 'none'; sandbox");
      // A stream is sent as it is, never serialised: the string schema of this answer only documents it.
      return reply.send(deps.fileStore.read(file.storageKey, file.id) as unknown as string);
    },
  );

  app.delete(
    '/api/v1/file/:id/',
    {
      schema: {
        tags: ['file'],
        params: idParam,
        querystring: reportFilesQuery,
        response: { 204: z.undefined(), ...errorResponses },
      },
      preHandler: loadInvitee,
    },
    async (request, reply) => {
      const { owner } = await fileCaller(request, { reportId: request.query.report_id });
      await deleteOwnFile(deps, request.params.id, owner);
      return reply.status(204).send();
    },
  );
};
