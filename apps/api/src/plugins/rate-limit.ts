import fp from 'fastify-plugin';
import { hmacHex } from '../lib/tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The caller's address as a keyed hash (HMAC under SECRET_KEY), the only form in which it leaves the HTTP
     * layer: the per-address limits in domain/ count this, and a reporter's address is never written anywhere.
     */
    addressKey: string;
  }
}

/**
 * Gives every request its `addressKey`. The counting itself is domain/rate-limits (a table every API process
 * shares); its 429 carries Retry-After through the AppError, written by the error handler.
 */
export const rateLimitPlugin = fp(
  async (app) => {
    const { SECRET_KEY } = app.deps.config;
    app.decorateRequest('addressKey', {
      getter() {
        return hmacHex(SECRET_KEY, this.ip);
      },
    });
  },
  { name: 'rate-limit' },
);
