import { z } from 'zod';

// The wire contract lives in packages/shared/src/contract (docs/decisions/0013); only what is about reading
// the request's path, and no answer, is declared here.
export { errorResponses, errorSchema, pageQuery, streamedResponse } from '@ansim/shared/contract/common';

/** A malformed id is answered like an unknown one: 404, never 400 or 500. */
export const idParam = z.object({
  id: z.string().transform((value, ctx) => {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'not found', params: { notFound: true } });
      return z.NEVER;
    }
    return value.toLowerCase();
  }),
});
