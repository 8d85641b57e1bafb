import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../../domain/audit/record-audit.ts';
import {
  asUploadError,
  deleteOwnFile,
  findReadableFile,
  listOwnFiles,
  storeUpload,
} from '../../../domain/files/files.ts';
import { AppError } from '../../../lib/app-error.ts';
import { fileCaller } from '../../../plugins/invitee.ts';
import { errorResponses, fileView, idParam } from '../../schemas.ts';

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
        response: { 201: fileView, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { owner } = await fileCaller(request);
      const upload = await request.file().catch((error: unknown) => {
        throw asUploadError(error);
      });
      if (!upload) throw new AppError('VALIDATION_ERROR', { details: { file: '올릴 파일을 선택해주세요.' } });
      const view = await storeUpload(deps, owner, {
        stream: upload.file,
        filename: upload.filename,
      });
      return reply.status(201).send(view);
    },
  );

  app.get(
    '/api/v1/file/',
    { schema: { tags: ['file'], response: { 200: z.array(fileView), ...errorResponses } } },
    async (request) => {
      const { owner } = await fileCaller(request);
      return listOwnFiles(deps.database, owner);
    },
  );

  app.get('/api/v1/file/:id/', { schema: { tags: ['file'], params: idParam } }, async (request, reply) => {
    const { caller } = await fileCaller(request);
    const { file, downloadName, asManagerOf } = await findReadableFile(
      deps.database,
      request.params.id,
      caller,
    );
    if (asManagerOf) {
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
    return reply.send(deps.fileStore.read(file.storageKey, file.id));
  });

  app.delete(
    '/api/v1/file/:id/',
    { schema: { tags: ['file'], params: idParam, response: { 204: z.undefined(), ...errorResponses } } },
    async (request, reply) => {
      const { owner } = await fileCaller(request);
      await deleteOwnFile(deps, request.params.id, owner);
      return reply.status(204).send();
    },
  );
};
