import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_MESSAGES_KO } from '@ansim/shared/messages.ko';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { attachKeyring, resolveMasterKey } from './encryption/keyring.ts';
import { AppError } from './lib/app-error.ts';
import type { CaptchaVerifier } from './lib/captcha-verifier.ts';
import { configureMetadataPool } from './lib/remove-metadata.ts';
import { unstorableTextPath } from './lib/storable-text.ts';
import { isApiRequest, normalizedPath } from './plugins/api-request.ts';
import { refuseUnmatchedBodies, registerJsonParser } from './plugins/body-limits.ts';
import { captchaPlugin } from './plugins/captcha.ts';
import { cookieNames } from './plugins/cookie-names.ts';
import { csrfPlugin } from './plugins/csrf.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { inviteePlugin } from './plugins/invitee.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { receiptPlugin } from './plugins/reporter.ts';
import {
  analyticsOrigins,
  baseSecurityHeaders,
  registerSecurityHeaders,
} from './plugins/security-headers.ts';
import { sessionPlugin } from './plugins/session.ts';
import {
  clientRoutes,
  type PrerenderedPage,
  type PrerenderedPageSource,
  prerenderedPages,
} from './prerendered-pages.ts';
import { captchaRoutes } from './routes/api/v1/captcha.ts';
import { companyRoutes } from './routes/api/v1/company.ts';
import { companyInvitationRoutes } from './routes/api/v1/company-invitation.ts';
import { fileRoutes } from './routes/api/v1/file.ts';
import { intakeRoutes } from './routes/api/v1/intake.ts';
import { invitationRoutes } from './routes/api/v1/invitation.ts';
import { managerRoutes } from './routes/api/v1/manager.ts';
import { operatorRoutes } from './routes/api/v1/operator.ts';
import { receiptRoutes } from './routes/api/v1/receipt.ts';
import { reportRoutes } from './routes/api/v1/report.ts';
import { siteRoutes } from './routes/api/v1/site.ts';
import { tokenRoutes } from './routes/api/v1/token.ts';
import { userRoutes } from './routes/api/v1/user.ts';
import { caseStreamRoutes } from './routes/case-stream.ts';
import { healthRoutes } from './routes/health.ts';
import { testClockRoutes } from './routes/test-clock.ts';
import { createFileStore } from './storage/create-file-store.ts';
import { createEncryptingFileStore, type EncryptingFileStore } from './storage/encrypting-file-store.ts';
import type { FileStore } from './storage/file-store.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  captcha: CaptchaVerifier;
  fileStore: EncryptingFileStore;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  captcha?: CaptchaVerifier;
  fileStore?: FileStore;
  logger?: FastifyServerOptions['logger'];
}

const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/**
 * Log lines carry method, route pattern and status only: no bodies, cookies, query strings (tokens travel
 * there) or client addresses (a reporter's IP is never written anywhere).
 */
export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    serializers: {
      req: (request: { method: string; url: string; routeOptions?: { url?: string } }) => ({
        method: request.method,
        // An unmatched path is the client's own text (a mistyped link may hold a token): long segments masked.
        url: request.routeOptions?.url ?? request.url.split('?')[0]!.replace(/[^/]{20,}/g, ':masked'),
      }),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
    },
    // Plugins log request headers of their own (multipart's busboyOptions at trace level): cookies live there.
    redact: ['req.headers', 'req.body', 'headers', '*.headers'],
  };
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  configureMetadataPool({ minimumWorkers: config.METADATA_WORKERS_MIN });
  const keyring = attachKeyring(database, resolveMasterKey(config), {
    requireSealed: config.ENCRYPTION_REQUIRE_SEALED,
  });
  const webDist = config.WEB_DIST ? path.resolve(config.WEB_DIST) : defaultWebDist;
  // The analytics host the web build was made with, if any: the CSP lets its client send to it.
  const analytics = analyticsOrigins(webDist);
  const app = Fastify({
    logger: options.logger ?? false,
    // A hop count believes that many proxies from the right of X-Forwarded-For, as proxy-addr does.
    trustProxy:
      typeof config.TRUST_PROXY === 'number'
        ? (_address: string, hop: number) => hop < (config.TRUST_PROXY as number)
        : config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 1024 * 1024,
    // Errors Fastify raises before routing (a URL that does not decode, an over-long parameter) would echo
    // the raw path and skip every hook: answered here like any other error, with the same headers.
    frameworkErrors: (error, _request, reply) => {
      const code = error.code === 'FST_ERR_BAD_URL' ? 'VALIDATION_ERROR' : 'NOT_FOUND';
      const status = error.code === 'FST_ERR_BAD_URL' ? 400 : 404;
      reply.raw.writeHead(status, {
        ...baseSecurityHeaders(config, analytics),
        'content-type': 'application/json; charset=utf-8',
      });
      reply.raw.end(JSON.stringify({ code, message: ERROR_MESSAGES_KO[code] }));
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(captchaPlugin, { config, database, verifier: options.captcha });
  app.decorate('deps', {
    config,
    database,
    captcha: app.captcha,
    // Encryption at rest sits above whichever storage driver is configured (docs/decisions/0004).
    fileStore: createEncryptingFileStore(options.fileStore ?? createFileStore(config), keyring),
  });
  // JSON only: a text/plain or form body is how a cross-site form would post without a preflight.
  app.removeContentTypeParser('text/plain');

  registerErrorHandler(app);
  registerJsonParser(app);
  await registerSecurityHeaders(app, config, analytics);
  await app.register(cookie);
  await app.register(multipart, {
    limits: { fileSize: config.MAX_FILE_BYTES, files: 1, fields: 5, parts: 6, headerPairs: 100 },
  });
  await app.register(csrfPlugin);
  // After the CSRF check (it reads no body), before the session and every route: nothing else is worth doing.
  refuseUnmatchedBodies(app);
  await app.register(rateLimitPlugin);
  await app.register(sessionPlugin);
  await app.register(receiptPlugin);
  await app.register(inviteePlugin);
  // Multipart is for the upload route alone: elsewhere it is a form a cross-site page can post unpreflighted.
  app.addHook('onRequest', async (request) => {
    const isMultipart = /^multipart\//i.test(request.headers['content-type'] ?? '');
    if (
      isMultipart &&
      !request.is404 &&
      !request.routeOptions.schema?.consumes?.includes('multipart/form-data')
    )
      throw new AppError('UNSUPPORTED_MEDIA_TYPE');
  });

  // Once for every route, before its schema: a string the database cannot store is the caller's error (400),
  // not a 500 from deep inside a query.
  app.addHook('preValidation', async (request) => {
    const path = unstorableTextPath(request.body) ?? unstorableTextPath(request.query);
    if (path)
      throw new AppError('VALIDATION_ERROR', {
        details: { [path]: '입력값에 쓸 수 없는 문자(NUL 또는 깨진 문자)가 들어 있습니다.' },
      });
  });

  await app.register(swagger, {
    openapi: { info: { title: '안심신고 API', version: '1.0.0' } },
    transform: jsonSchemaTransform,
  });
  // No CSP of its own (swagger-ui's is weaker: framing by itself, styles and fonts from any https origin):
  // the docs run under the global policy, which their self-hosted scripts satisfy.
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: false });

  await app.register(healthRoutes);
  if (config.NODE_ENV === 'test' && config.TEST_CLOCK_ROUTE) await app.register(testClockRoutes);
  await app.register(captchaRoutes);
  await app.register(siteRoutes);
  await app.register(userRoutes);
  await app.register(tokenRoutes);
  await app.register(fileRoutes);
  await app.register(reportRoutes);
  await app.register(managerRoutes);
  await app.register(caseStreamRoutes);
  await app.register(companyRoutes);
  await app.register(invitationRoutes);
  await app.register(companyInvitationRoutes);
  await app.register(operatorRoutes);
  await app.register(intakeRoutes);
  await app.register(receiptRoutes);

  const webApp = await registerWebApp(app, webDist);
  app.setNotFoundHandler(async (request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !isApiRequest(request);
    if (webApp && isPage) {
      const pathname = normalizedPath(request.url);
      // An invitee's page carries its token in the address until the page removes it: never send it on.
      if (/^\/(defendant|reference|join)(\/|$)/.test(pathname))
        reply.header('Referrer-Policy', 'no-referrer');
      reply.header('Cache-Control', 'no-cache');
      // An address the client has no page for: 404, with the app, which draws its not-found page.
      if (!webApp.isClientRoute(pathname))
        return reply
          .status(404)
          .type('text/html; charset=utf-8')
          .send(await fs.promises.readFile(path.join(webDist, 'index.html')));
      const page = await webApp.prerendered(pathname, { member: hasSession(request) });
      if (page) return sendPrerendered(request, reply, page);
      return reply.sendFile('index.html', { etag: true, lastModified: true });
    }
    return reply.status(404).send({ code: 'NOT_FOUND', message: ERROR_MESSAGES_KO.NOT_FOUND });
  });
  return app;
}

/**
 * Headers that govern a document and nothing a script, style sheet or font does: a page loads 50 or so hashed
 * files, and over HTTP/1.1 these 0.7 KB went out with each (R-PERF-2 counts headers in what a first visit
 * transfers). `nosniff` and the resource policy stay on every file.
 */
export const DOCUMENT_ONLY_HEADERS = [
  'permissions-policy',
  'x-frame-options',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-xss-protection',
  'x-download-options',
  'x-dns-prefetch-control',
  'x-permitted-cross-domain-policies',
] as const;

/**
 * A worker runs under the CSP and referrer policy of its own response; any other script runs under its
 * document's, so on those the two headers are bytes for nothing. The web build names worker files with this
 * prefix (apps/web/vite.config.ts).
 */
export const WORKER_SCRIPT_PREFIX = 'worker-';
export const WORKER_ONLY_HEADERS = ['content-security-policy', 'referrer-policy'] as const;

/**
 * The public prerendered pages are what a logged-out visitor sees; with a session the menu is a member's, so
 * only the member pages are drawn for it (decision 0023). Whether the session is still valid does not matter
 * here: the document is the same for every member, and the app sends someone logged out to /login.
 */
function hasSession(request: FastifyRequest): boolean {
  return Boolean(request.cookies[cookieNames(request.server.deps.config).session]);
}

/** A prerendered page, compressed as the client accepts, and 304 when the client already has it. */
function sendPrerendered(request: FastifyRequest, reply: FastifyReply, page: PrerenderedPage) {
  reply.header('ETag', page.etag).header('Vary', 'Accept-Encoding');
  if (request.headers['if-none-match'] === page.etag) return reply.status(304).send();
  reply.type('text/html; charset=utf-8');
  const accepted = String(request.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) return reply.header('Content-Encoding', 'br').send(page.br);
  if (/\bgzip\b/.test(accepted)) return reply.header('Content-Encoding', 'gzip').send(page.gzip);
  return reply.send(page.html);
}

/**
 * Serves the built web client; any other non-API GET gets index.html so the client router can take it, or,
 * for the public pages the build prerenders, that page's HTML (decision 0020).
 */
async function registerWebApp(
  app: FastifyInstance,
  webDist: string,
): Promise<{ prerendered: PrerenderedPageSource; isClientRoute: (pathname: string) => boolean } | null> {
  const indexPath = path.join(webDist, 'index.html');
  if (!fs.existsSync(indexPath)) return null;
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    preCompressed: true,
    index: false,
    // Hashed files never change under their name, so validators and ranges only add bytes to each response;
    // index.html, the one file that does change, asks for its validators where it is sent.
    etag: false,
    lastModified: false,
    acceptRanges: false,
    setHeaders: (reply, filePath) => {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (!hashed) return;
      for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
      // A precompressed file is sent from its .br or .gz twin.
      const isScript = /\.js(\.br|\.gz)?$/.test(filePath);
      if (isScript && !path.basename(filePath).startsWith(WORKER_SCRIPT_PREFIX))
        for (const name of WORKER_ONLY_HEADERS) reply.removeHeader(name);
    },
  });
  const { OPERATOR_NAME, OPERATOR_CONTACT } = app.deps.config;
  return {
    isClientRoute: clientRoutes(webDist),
    prerendered: prerenderedPages(
      webDist,
      { operator_name: OPERATOR_NAME, operator_contact: OPERATOR_CONTACT },
      app.log,
    ),
  };
}
