import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.ts';

/**
 * The wire contract (docs/decisions/0013): every operation of the OpenAPI document, which is generated from the
 * zod schemas the routes are registered with, declares a schema for each success status and for its errors,
 * and none of them is the empty schema (what `z.any()` and `z.unknown()` become) — a route without a response
 * schema would send whatever its handler returns, and this test is what notices one.
 */
type JsonSchema = Record<string, unknown>;
interface ResponseObject {
  description?: string;
  content?: Record<string, { schema?: JsonSchema }>;
}
interface Operation {
  responses?: Record<string, ResponseObject>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Fastify's own routes of the documentation plugin; they serve the document, they are not in it. */
const isEmpty = (schema: unknown) =>
  !schema || (typeof schema === 'object' && Object.keys(schema as object).length === 0);

/**
 * Paths inside a schema where a field may take any value: `{}` as a property or an array's items is a field
 * the schema does not describe. A record's `additionalProperties: {}` is a JSON value documented as one.
 */
export function untypedPaths(schema: unknown, at = '#'): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const node = schema as JsonSchema;
  const found: string[] = [];
  const visit = (child: unknown, path: string) => {
    if (isEmpty(child)) found.push(path);
    else found.push(...untypedPaths(child, path));
  };
  for (const [name, child] of Object.entries((node.properties as JsonSchema | undefined) ?? {}))
    visit(child, `${at}/properties/${name}`);
  if (node.items) visit(node.items, `${at}/items`);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const [index, child] of ((node[key] as unknown[] | undefined) ?? []).entries())
      visit(child, `${at}/${key}/${index}`);
  if (node.additionalProperties && typeof node.additionalProperties === 'object')
    found.push(...untypedPaths(node.additionalProperties, `${at}/additionalProperties`));
  return found;
}

/** What is wrong with one operation's responses, as readable lines; empty when it keeps the contract. */
export function contractProblems(operation: Operation): string[] {
  const responses = operation.responses ?? {};
  const problems: string[] = [];
  const statuses = Object.keys(responses);
  if (!statuses.some((status) => /^2\d\d$/.test(status))) problems.push('no success response');
  if (!statuses.some((status) => /^[45]\d\d$/.test(status))) problems.push('no error responses');
  for (const [status, response] of Object.entries(responses)) {
    if (status === '204') continue;
    const contents = Object.entries(response.content ?? {});
    if (contents.length === 0) {
      problems.push(`${status}: no schema`);
      continue;
    }
    for (const [type, { schema }] of contents) {
      if (isEmpty(schema)) problems.push(`${status} ${type}: empty schema (any)`);
      for (const path of untypedPaths(schema)) problems.push(`${status} ${type}: ${path} is untyped (any)`);
      // Every 4xx is the one error shape (the readiness probe's 503 is its own `{status}`).
      if (/^4/.test(status) && type === 'application/json') {
        const properties = (schema?.properties ?? {}) as JsonSchema;
        if (!properties.code || !properties.message)
          problems.push(`${status}: not the {code, message} error`);
      }
    }
  }
  return problems;
}

describe('OpenAPI wire contract', () => {
  let ctx: TestContext;
  let document: { paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>> };

  beforeAll(async () => {
    ctx = await createTestApp();
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
  });
  afterAll(() => ctx.close());

  it('declares a response schema for every success status and every error of every operation', () => {
    const problems: string[] = [];
    let operations = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        operations += 1;
        for (const problem of contractProblems(operation))
          problems.push(`${method.toUpperCase()} ${path}: ${problem}`);
      }
    }
    expect(operations).toBeGreaterThan(30);
    expect(problems).toEqual([]);
  });

  it('notices a route without a response schema, an `any` field and an `any` answer', () => {
    expect(contractProblems({ responses: { 200: { description: 'Default Response' } } })).toEqual([
      'no error responses',
      '200: no schema',
    ]);
    const error = { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } };
    const json = (schema: JsonSchema) => ({ content: { 'application/json': { schema } } });
    expect(contractProblems({ responses: { 200: json({}), 404: json(error) } })).toEqual([
      '200 application/json: empty schema (any)',
    ]);
    const list = { type: 'object', properties: { results: { type: 'array', items: {} } } };
    expect(contractProblems({ responses: { 200: json(list), 404: json(error) } })).toEqual([
      '200 application/json: #/properties/results/items is untyped (any)',
    ]);
    expect(contractProblems({ responses: { 204: { description: 'No content' }, 404: json(error) } })).toEqual(
      [],
    );
  });

  it('documents streamed answers with their content type', () => {
    const content = (path: string) =>
      Object.keys(document.paths[path]?.get?.responses?.['200']?.content ?? {});
    expect(content('/api/v1/file/{id}/')).toEqual(['application/octet-stream']);
    expect(content('/api/v1/report/{id}/events')).toEqual(['text/event-stream']);
    expect(content('/api/v1/manager/report/{id}/events')).toEqual(['text/event-stream']);
    expect(content('/api/v1/manager/report/export.csv')).toEqual(['text/csv']);
    expect(content('/api/v1/manager/report/{id}/record.pdf')).toEqual(['application/pdf']);
  });
});
