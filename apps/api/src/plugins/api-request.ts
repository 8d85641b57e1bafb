import type { FastifyRequest } from 'fastify';

/**
 * The path as the router understands it: percent-decoded, repeated slashes collapsed, lower-cased. Rules
 * keyed on "is this the API" must test this, never the raw URL: `/%61pi/…` and `//api/…` are other spellings
 * of `/api/…`. A path that does not decode is left as it is (the router refuses it anyway).
 */
export function normalizedPath(url: string): string {
  const raw = url.split('?')[0] ?? '';
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // Malformed escapes: Fastify answers these itself (frameworkErrors in app.ts).
  }
  return decoded.replace(/[/\\]+/g, '/').toLowerCase();
}

/** True for any request the API answers: by the route that matched, else by the normalized path. */
export function isApiRequest(request: FastifyRequest): boolean {
  const route = request.routeOptions?.url;
  if (route) return route.startsWith('/api');
  const path = normalizedPath(request.url);
  return path === '/api' || path.startsWith('/api/');
}
