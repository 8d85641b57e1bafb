import { ERROR_STATUS, type ErrorCode } from '@ansim/shared/error-codes';
import { ERROR_MESSAGES_KO } from '@ansim/shared/messages.ko';

/** The one error type domain code throws; the error handler turns it into `{code, message}` and its status. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details?: Record<string, string>;
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    options: { message?: string; details?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    super(options.message ?? ERROR_MESSAGES_KO[code]);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ERROR_STATUS[code];
    this.details = options.details;
    this.headers = options.headers;
  }
}
