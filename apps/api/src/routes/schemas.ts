import { z } from 'zod';

export const errorSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.string()).optional(),
});

/** Declared on every route so the OpenAPI document shows the error shape and nothing else leaks out. */
export const errorResponses = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  410: errorSchema,
  422: errorSchema,
  429: errorSchema,
} as const;

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

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

export const fileView = z.object({
  id: z.uuid(),
  name: z.string(),
  size: z.number().int(),
  content_type: z.string(),
  sha256: z.string(),
  created_at: z.string(),
  metadata: z.enum(['removed', 'none', 'unremovable']),
});

export const reportSummary = z.object({
  id: z.uuid(),
  case_number: z.string(),
  report_type: z.string(),
  status: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
