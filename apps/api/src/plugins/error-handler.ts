import { ERROR_STATUS, isErrorCode } from '@ansim/shared/error-codes';
import { ERROR_MESSAGES_KO } from '@ansim/shared/messages.ko';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error.ts';
import { isUnavailableError } from '../lib/unavailable.ts';

/** Fastify's own error codes mapped to ours, so framework errors read like every other error. */
const FASTIFY_CODES: Record<string, keyof typeof ERROR_STATUS> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_ERROR',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'VALIDATION_ERROR',
  FST_ERR_CTP_INVALID_JSON_BODY: 'VALIDATION_ERROR',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_EMPTY_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_REQ_FILE_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_FILES_LIMIT: 'PAYLOAD_TOO_LARGE',
  FST_PARTS_LIMIT: 'PAYLOAD_TOO_LARGE',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
};

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string } };
}

function detailsFrom(issues: readonly ValidationIssue[], prefix?: string): Record<string, string> {
  const details: Record<string, string> = {};
  for (const issue of issues) {
    const pathParts = issue.params?.issue?.path ?? issue.instancePath?.split('/').filter(Boolean) ?? [];
    const key = [prefix, ...pathParts.map(String)].filter(Boolean).join('.') || (prefix ?? 'body');
    details[key] ??= issue.params?.issue?.message ?? issue.message ?? ERROR_MESSAGES_KO.VALIDATION_ERROR;
  }
  return details;
}

type DatabaseErrorFields = Partial<
  Record<'code' | 'severity' | 'constraint' | 'table' | 'column' | 'routine', string>
>;

/**
 * A database error as it may be logged. Drizzle writes the query's parameters (report text, names, e-mail
 * addresses) into its message and stack, and PostgreSQL's message and `detail` can quote a row's values: keep
 * the statement, the SQLSTATE and the constraint, never the values.
 */
export function loggableError(error: Error): unknown {
  const isQueryError = 'query' in error && 'params' in error;
  const database = (isQueryError ? error.cause : error) as DatabaseErrorFields | undefined;
  if (!isQueryError && !database?.severity) return error;
  return {
    type: error.name,
    query: isQueryError ? String(error.query) : undefined,
    sqlState: database?.code,
    constraint: database?.constraint,
    table: database?.table,
    column: database?.column,
    routine: database?.routine,
    stack: error.stack
      ?.split('\n')
      .filter((line) => line.startsWith('    at '))
      .join('\n'),
  };
}

/**
 * One handler for every error: `{code, message}` with the code's status. A 5xx never carries the internal
 * message or a stack; only the log gets the error (without request bodies, see the logger's serializers).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.statusCode).send({
        code: error.code,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error) && error.validationContext === 'params') {
      return reply.status(404).send({ code: 'NOT_FOUND', message: ERROR_MESSAGES_KO.NOT_FOUND });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(400).send({
        code: 'VALIDATION_ERROR',
        message: ERROR_MESSAGES_KO.VALIDATION_ERROR,
        details: detailsFrom(
          error.validation as ValidationIssue[],
          error.validationContext === 'body' ? undefined : error.validationContext,
        ),
      });
    }
    const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (mapped) {
      return reply.status(ERROR_STATUS[mapped]).send({ code: mapped, message: ERROR_MESSAGES_KO[mapped] });
    }
    const status = isUnavailableError(error) ? 503 : (error.statusCode ?? 500);
    if (status >= 500 || status < 400) {
      // A database away for a moment (restart, failover) is worth a retry, not a report of a bug.
      if (status === 503) reply.header('Retry-After', '5');
      request.log.error({ err: loggableError(error) }, 'request failed');
      const code = status === 503 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_SERVER_ERROR';
      return reply.status(status === 503 ? 503 : 500).send({ code, message: ERROR_MESSAGES_KO[code] });
    }
    const code = isErrorCode(error.code) ? error.code : statusToCode(status);
    return reply.status(status).send({ code, message: ERROR_MESSAGES_KO[code] });
  });
}

function statusToCode(status: number): keyof typeof ERROR_STATUS {
  const found = (Object.entries(ERROR_STATUS) as [keyof typeof ERROR_STATUS, number][]).find(
    ([, value]) => value === status,
  );
  return found ? found[0] : 'VALIDATION_ERROR';
}
