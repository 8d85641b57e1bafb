/**
 * Every error the API sends is `{code, message}` with one of these codes. The HTTP status belongs to the
 * code, so a handler only names the code and the status cannot drift.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  /** Wrong e-mail or password. Deliberately 400, never 401: the client reads 401 as "login is required". */
  INVALID_CREDENTIALS: 400,
  CAPTCHA_FAILED: 400,
  /** A wrong, reused or expired second-factor code (TOTP, recovery code or passkey answer). */
  INVALID_MFA_CODE: 400,
  /** The half-finished login (password right, second factor pending) is unknown or has expired. */
  MFA_CHALLENGE_EXPIRED: 400,
  /** Confirmation or reset token unknown, used or expired — one code so a token's fate is not revealed. */
  INVALID_TOKEN: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  CSRF_FAILED: 403,
  EMAIL_NOT_CONFIRMED: 403,
  NO_COMPANY: 403,
  /** A manager without a second factor: every manager route waits until one is enrolled. */
  MFA_ENROLLMENT_REQUIRED: 403,
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  INVALID_TRANSITION: 409,
  FILE_IN_USE: 409,
  ALREADY_SUBMITTED: 409,
  INVITATION_EXPIRED: 410,
  /** The anonymous draft's intake token is unknown or expired: its uploads are gone, the draft starts again. */
  INTAKE_EXPIRED: 410,
  /** The company's data key was erased on purpose (crypto-erase): the stored contents can never be read again. */
  DATA_ERASED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** Metadata of this file could not be removed: it may not be cited by an anonymous report (fail closed). */
  FILE_METADATA_UNREMOVABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorPayload {
  code: string;
  message: string;
  /** Per-field messages for VALIDATION_ERROR, keyed by the dotted field path (e.g. `acts.0.date`). */
  details?: Record<string, string>;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}
