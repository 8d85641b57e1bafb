/**
 * Every error the API sends is `{code, message}` with one of these codes. The HTTP status belongs to the
 * code, so a handler only names the code and the status cannot drift.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  /** A JSON body nested deeper, or with a longer array, than any form of the API: refused before it is parsed. */
  BODY_TOO_COMPLEX: 400,
  /** Wrong e-mail or password. Deliberately 400, never 401: the client reads 401 as "login is required". */
  INVALID_CREDENTIALS: 400,
  CAPTCHA_FAILED: 400,
  /** A wrong, reused or expired second-factor code (TOTP, recovery code or passkey answer). */
  INVALID_MFA_CODE: 400,
  /** The half-finished login (password right, second factor pending) is unknown or has expired. */
  MFA_CHALLENGE_EXPIRED: 400,
  /** Confirmation or reset token unknown, used or expired — one code so a token's fate is not revealed. */
  INVALID_TOKEN: 400,
  /** Someone who may not handle this case: not a handler of its company, or excluded from it (conflict of interest). */
  INVALID_ASSIGNEE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  CSRF_FAILED: 403,
  EMAIL_NOT_CONFIRMED: 403,
  NO_COMPANY: 403,
  /** A manager without a second factor: every manager route waits until one is enrolled. */
  MFA_ENROLLMENT_REQUIRED: 403,
  /** The operator suspended the user's company: no login, no session; its data stays. */
  COMPANY_SUSPENDED: 403,
  /** A company invitation is for another address than the logged-in account's. */
  INVITATION_WRONG_ACCOUNT: 403,
  NOT_FOUND: 404,
  /** No company has this join code (or it was changed): the same answer whatever the reason. */
  JOIN_CODE_UNKNOWN: 404,
  USER_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  /** The account already belongs to a company: a join code cannot move it to another one. */
  ALREADY_IN_COMPANY: 409,
  INVALID_TRANSITION: 409,
  FILE_IN_USE: 409,
  /** The company's last administrator cannot give up the role: nobody would be left to run its settings. */
  LAST_ADMIN: 409,
  /** The mail domain is already another company's (or a claim of it is pending here). */
  DOMAIN_TAKEN: 409,
  ALREADY_SUBMITTED: 409,
  /** The case is closed or dismissed: only notes, messages and reopening are allowed. */
  CASE_CLOSED: 409,
  /** A company invitation reached someone who belongs to another company (or runs the platform). */
  IN_ANOTHER_COMPANY: 409,
  INVITATION_EXPIRED: 410,
  /** The anonymous draft's intake token is unknown or expired: its uploads are gone, the draft starts again. */
  INTAKE_EXPIRED: 410,
  /** The company's data key was erased on purpose (crypto-erase): the stored contents can never be read again. */
  DATA_ERASED: 410,
  PAYLOAD_TOO_LARGE: 413,
  /** A request body over its route's limit (a few KB where only a login or a code is sent). */
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** Metadata of this file could not be removed: it may not be cited by an anonymous report (fail closed). */
  FILE_METADATA_UNREMOVABLE: 422,
  /** A handler's file for an anonymous case could not be cleaned of metadata and links: not sent. */
  FILE_NOT_NEUTRALISED: 422,
  /**
   * An anonymous report's notice address is at a company's mail domain or is an account's address. One code
   * for both, so the answer never tells whether an address has an account.
   */
  CONTACT_EMAIL_NOT_PRIVATE: 422,
  /** The reporter objected to this measure: it is carried out only with a recorded reason (76-3 ④). */
  MEASURE_OBJECTED: 422,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  /** Every metadata worker stayed busy past the upload's wait deadline: the same upload may be sent again. */
  UPLOAD_BUSY: 503,
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
