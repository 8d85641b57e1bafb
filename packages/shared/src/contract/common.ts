import { z } from 'zod';

/**
 * What every route shares on the wire (docs/decisions/0013-wire-contract.md). The API registers these zod
 * schemas as its Fastify route schemas, the OpenAPI document is generated from them and the web infers its
 * types from them: a response is declared once, here.
 */

export const errorSchema = z.object({
  code: z.string(),
  message: z.string().describe('Korean, for the user'),
  details: z.record(z.string(), z.string()).optional().describe('field path → message, on 400'),
});
export type ApiError = z.infer<typeof errorSchema>;

/**
 * Declared on every route so the OpenAPI document shows the error shape and nothing else leaks out: the
 * statuses the one error handler answers with (413/415 for any body, 500/503 when a dependency fails).
 */
export const errorResponses = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  410: errorSchema,
  413: errorSchema,
  415: errorSchema,
  422: errorSchema,
  429: errorSchema,
  500: errorSchema,
  503: errorSchema,
} as const;

/** An ISO 8601 instant as the API writes it (`Date.toISOString()`). */
export const instant = z.string().describe('ISO 8601 date-time');
export const epochSeconds = z.number().int().describe('epoch seconds');

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

/** One page of a list, with the links of its neighbours (null at either end). */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
export type Page<T> = { count: number; next: string | null; previous: string | null; results: T[] };

/** An answer that only says the request was taken: `{detail}` in Korean. */
export const detailResponse = z.object({ detail: z.string() });

/**
 * A JSON object the API passes through whole: one whose fields belong to someone else's format (WebAuthn's
 * options and answers, checked by @simplewebauthn) or a form the server checked when it was written.
 */
export const jsonObject = z.record(z.string(), z.unknown());

/**
 * A response that is not JSON: a file, a CSV, a PDF, or a `text/event-stream`. OpenAPI describes its body as a
 * string (`format: binary` for bytes) under its own content type; Fastify sends streams and buffers as they
 * are, so this schema documents and never serialises (docs/decisions/0013).
 */
export function streamedResponse(contentType: string, description: string, format?: 'binary') {
  const body = format ? z.string().meta({ format }) : z.string();
  return { description, content: { [contentType]: { schema: body.describe(description) } } };
}
