import type { ErrorPayload } from '@ansim/shared/error-codes';
import { CLIENT_MESSAGES_KO, ERROR_MESSAGES_KO } from '@ansim/shared/messages.ko';

/** The one error shape every failed call ends in (docs/requirements.md R-SEC-1, R-WEB-7). */
export class RequestError extends Error {
  override readonly name = 'RequestError';
  /** HTTP status; 0 when no response arrived. */
  readonly status: number;
  readonly code: string;
  /** Per-field messages of a 400 VALIDATION_ERROR, keyed by dotted field path. */
  readonly details: Record<string, string> | undefined;

  constructor(status: number, payload: ErrorPayload) {
    super(payload.message);
    this.status = status;
    this.code = payload.code;
    this.details = payload.details;
  }

  get payload(): ErrorPayload {
    return { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }
}

/**
 * A call that failed on the way (no `response`: `code` says why, in the catalogue's names ERR_NETWORK,
 * ECONNABORTED, ERR_CANCELED) or that the server answered with an error status (`response`).
 */
export interface TransportFailure {
  isTransportFailure: true;
  code?: string;
  response?: { status: number; data?: unknown };
  cause?: unknown;
}

function isTransportFailure(error: unknown): error is TransportFailure {
  return (
    typeof error === 'object' && error !== null && (error as TransportFailure).isTransportFailure === true
  );
}

function isErrorPayload(data: unknown): data is ErrorPayload {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as ErrorPayload).code === 'string' &&
    typeof (data as ErrorPayload).message === 'string'
  );
}

function fromResponse(status: number, data: unknown): RequestError {
  switch (status) {
    case 401:
      return new RequestError(401, { code: 'UNAUTHORIZED', message: ERROR_MESSAGES_KO.UNAUTHORIZED });
    case 500:
      return new RequestError(500, {
        code: 'INTERNAL_SERVER_ERROR',
        message: ERROR_MESSAGES_KO.INTERNAL_SERVER_ERROR,
      });
    case 502:
      return new RequestError(502, { code: 'BAD_GATEWAY', message: ERROR_MESSAGES_KO.BAD_GATEWAY });
    default:
      if (isErrorPayload(data)) {
        const details =
          typeof data.details === 'object' && data.details !== null ? { details: data.details } : {};
        return new RequestError(status, { code: data.code, message: data.message, ...details });
      }
      return new RequestError(status, { code: 'UNKNOWN', message: CLIENT_MESSAGES_KO.UNKNOWN });
  }
}

function fromNoResponse(code: string | undefined): RequestError {
  switch (code) {
    case 'ECONNABORTED':
      return new RequestError(0, { code, message: CLIENT_MESSAGES_KO.ECONNABORTED });
    case 'ENOTFOUND':
    case 'ERR_NETWORK':
      return new RequestError(0, { code, message: CLIENT_MESSAGES_KO.NETWORK });
    case 'ERR_CANCELED':
      return new RequestError(0, { code, message: CLIENT_MESSAGES_KO.ERR_CANCELED });
    default:
      return new RequestError(0, { code: code ?? 'UNKNOWN', message: CLIENT_MESSAGES_KO.OTHER_NETWORK });
  }
}

/** Maps any failure of a call to the error catalogue of docs/requirements.md R-WEB-7. */
export function toRequestError(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  if (isTransportFailure(error)) {
    return error.response
      ? fromResponse(error.response.status, error.response.data)
      : fromNoResponse(error.code);
  }
  return new RequestError(0, { code: 'UNKNOWN', message: CLIENT_MESSAGES_KO.UNKNOWN });
}

export function isRequestError(error: unknown, code?: string): error is RequestError {
  return error instanceof RequestError && (code === undefined || error.code === code);
}
