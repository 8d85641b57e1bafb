/**
 * Whether an error means a service we depend on is not there right now (the database stopped, restarting or
 * out of connections; a connection refused or cut), rather than that the request or our code is wrong. Such
 * a request is answered 503 and can be tried again; it is not a 500.
 */
export function isUnavailableError(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, message, cause, errors } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    // Drizzle wraps the driver's error in `cause`; a refused dual-stack connect is an AggregateError.
    pending.push(cause);
    if (Array.isArray(errors)) pending.push(...errors);
  }
  return false;
}

/**
 * SQLSTATE 57P01–57P03 (administrator shutdown, crash shutdown, cannot connect now), 53300 (too many
 * connections; class 08 is the connection exception class), and the socket errors of a server that is gone.
 */
const UNAVAILABLE_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** node-postgres reports a cut connection and a full pool by message only. */
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated( unexpectedly)?|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable)/;
