import { randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import { hmacHex } from '../lib/tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The caller's address as a keyed hash (HMAC under SECRET_KEY), the only form in which it leaves the HTTP
     * layer: the per-address limits of logins and account requests count this, the same in every process.
     */
    addressKey: string;
    /**
     * The caller's address as a hash under a key that exists only in this process's memory and is replaced at
     * least daily (decision 0030): what the anonymous visitors' throttles (intake pages, receipts) count. Whoever
     * holds the configuration or a database copy cannot turn it back into an address.
     */
    visitorKey: string;
  }
}

/** The visitor key is replaced after this long, so no key outlives a day of visits. */
export const VISITOR_KEY_LIFETIME_MS = 24 * 3600 * 1000;

let visitorSecret = { key: randomBytes(32).toString('base64'), since: Date.now() };

/** The process's current visitor key, replaced when it is a day old. */
function currentVisitorSecret(now = Date.now()): string {
  if (now - visitorSecret.since >= VISITOR_KEY_LIFETIME_MS) {
    visitorSecret = { key: randomBytes(32).toString('base64'), since: now };
  }
  return visitorSecret.key;
}

/**
 * A value keyed under the process's visitor key, for counters that must not name who they count in the
 * database (an account's uploads beside the time of an anonymous report).
 */
export function visitorDigest(value: string): string {
  return hmacHex(currentVisitorSecret(), value);
}

/** Replaces the visitor key now: what a day's end does, for tests and for an operator's restart alike. */
export function rotateVisitorKey(): void {
  visitorSecret = { key: randomBytes(32).toString('base64'), since: Date.now() };
}

/**
 * Gives every request its `addressKey` and `visitorKey`. The counting itself is domain/rate-limits; its 429
 * carries Retry-After through the AppError, written by the error handler.
 */
export const rateLimitPlugin = fp(
  async (app) => {
    const { SECRET_KEY } = app.deps.config;
    app.decorateRequest('addressKey', {
      getter() {
        return hmacHex(SECRET_KEY, this.ip);
      },
    });
    app.decorateRequest('visitorKey', {
      getter() {
        return hmacHex(currentVisitorSecret(), this.ip);
      },
    });
  },
  { name: 'rate-limit' },
);
