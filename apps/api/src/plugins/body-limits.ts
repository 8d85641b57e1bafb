import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.ts';

/**
 * The body limit of routes that take only a login, a code, a receipt, a captcha solution or an intake code:
 * the largest of them (a passkey's answer, a Turnstile token) is under 3 KB. Everywhere else the global 1 MiB
 * holds (a formal report with its acts is some tens of KB).
 */
export const SMALL_BODY_BYTES = 8 * 1024;
/** Deeper than any form of the API (the report form nests five levels); a parser's recursion stays short. */
export const MAX_JSON_DEPTH = 64;
/** More items than any list of the API holds (acts, witnesses, evidences: tens at most). */
export const MAX_JSON_ARRAY_ITEMS = 1000;

/** Gives every route registered in this plugin (and its children) the small body limit, unless it sets one. */
export function useSmallBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= SMALL_BODY_BYTES;
  });
}

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * One pass over the raw bytes, before JSON.parse sees them: false when the text nests deeper than `maxDepth` or
 * holds an array of more than `maxItems` items. Strings are skipped (a bracket inside one is text); the counts
 * need no allocation beyond one small array per depth. Malformed JSON passes here and fails in the parser.
 * A body 500,000 levels deep costs JSON.parse seconds of the one event loop every request shares; here it
 * stops after 65 bytes.
 */
export function isJsonWithinLimits(
  body: Buffer,
  maxDepth = MAX_JSON_DEPTH,
  maxItems = MAX_JSON_ARRAY_ITEMS,
): boolean {
  // items[d] counts the commas of the array open at depth d (-1 for an object: its commas are not counted).
  const items = new Int32Array(maxDepth + 1);
  let depth = 0;
  for (let i = 0; i < body.length; i += 1) {
    const byte = body[i] ?? 0;
    if (byte === QUOTE) i = endOfString(body, i);
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth += 1;
      if (depth > maxDepth) return false;
      items[depth] = byte === OPEN_ARRAY ? 0 : -1;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth = Math.max(0, depth - 1);
    else if (byte === COMMA && depth > 0 && (items[depth] ?? -1) >= 0) {
      // n commas separate n + 1 items.
      items[depth] = (items[depth] ?? 0) + 1;
      if ((items[depth] ?? 0) >= maxItems) return false;
    }
  }
  return true;
}

/** The index of the quote that ends the string opened at `start` (or the body's end). */
function endOfString(body: Buffer, start: number): number {
  for (let i = start + 1; i < body.length; i += 1) {
    const byte = body[i];
    if (byte === BACKSLASH) i += 1;
    else if (byte === QUOTE) return i;
  }
  return body.length;
}

/** JSON bodies through the byte scan above, then Fastify's own parser (prototype-poisoning checks kept). */
export function registerJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const raw = body as Buffer;
    if (!isJsonWithinLimits(raw)) {
      done(new AppError('BODY_TOO_COMPLEX'), undefined);
      return;
    }
    parseJson(request, raw.toString('utf8'), done);
  });
}

/**
 * An unmatched route parses nothing: it is answered 404 before its body is read, so an unknown `/api/…` address
 * cannot be used to make the server parse a megabyte. (GET and HEAD go on to the web app's pages.)
 */
export function refuseUnmatchedBodies(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404 || request.method === 'GET' || request.method === 'HEAD') return;
    const hasBody =
      Number(request.headers['content-length'] ?? 0) > 0 ||
      request.headers['transfer-encoding'] !== undefined;
    // The unread body is not waited for: the connection closes with the answer.
    if (hasBody) reply.header('connection', 'close');
    throw new AppError('NOT_FOUND');
  });
}
