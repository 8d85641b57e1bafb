import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serverClockOffsetSeconds, setServerClockOffset } from '../lib/server-clock.ts';

const clockBody = z.object({
  offset_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .describe('how far ahead of the wall clock'),
});
const clockView = z.object({ offset_seconds: z.number().int() });

/**
 * The e2e suite's handle on the server's session clock (lib/server-clock.ts). Registered by app.ts only when
 * NODE_ENV=test and TEST_CLOCK_ROUTE=true, a pair config.ts refuses outside test, so a production server has
 * no such route (404 like any unknown path). Moving it forward ages every session at once, as time would.
 */
export const testClockRoutes: FastifyPluginAsyncZod = async (app) => {
  if (app.deps.config.NODE_ENV !== 'test' || !app.deps.config.TEST_CLOCK_ROUTE)
    throw new Error('the test clock route exists only under NODE_ENV=test with TEST_CLOCK_ROUTE=true');
  app.put(
    '/api/test/clock',
    { schema: { hide: true, body: clockBody, response: { 200: clockView } } },
    async (request) => {
      setServerClockOffset(request.body.offset_seconds);
      return { offset_seconds: serverClockOffsetSeconds() };
    },
  );
};
