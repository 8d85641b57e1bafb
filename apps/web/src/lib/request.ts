import {
  CSRF_COOKIE,
  CSRF_HEADER,
  SECURE_CSRF_COOKIE,
  SESSION_EXPIRES_HEADER,
} from '@ansim/shared/constants';
import { env } from '../config/env';
import { readCookie } from './cookies';
import { type TransportFailure, toRequestError } from './request-error';
import { noteSessionExpires, noteUnauthorized } from './session-sync';

export type HttpMethod =
  | 'get'
  | 'post'
  | 'put'
  | 'patch'
  | 'delete'
  | 'GET'
  | 'POST'
  | 'PUT'
  | 'PATCH'
  | 'DELETE';

export interface RequestOptions {
  data?: unknown;
  params?: Record<string, unknown>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Upload progress of the request body, e.g. for an evidence file's progress bar. */
  onUploadProgress?: (progress: { loaded: number; total?: number }) => void;
}

/** One HTTP exchange as the helper hands it to the transport: the body already encoded. */
export interface HttpCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: XMLHttpRequestBodyInit | null;
  signal?: AbortSignal;
  onUploadProgress?: RequestOptions['onUploadProgress'];
}

/** What came back: the status, a header reader and the body, parsed as JSON where it is JSON. */
export interface HttpAnswer {
  status: number;
  header: (name: string) => string | null;
  data: unknown;
}

/**
 * Sends one call. Resolves with any answer the server gave, error statuses included; rejects with a
 * {@link TransportFailure} (its `code` one of the R-WEB-7 catalogue's) only when no answer arrived.
 */
export type Transport = (call: HttpCall) => Promise<HttpAnswer>;

const noAnswer = (code: string, cause?: unknown): TransportFailure => ({
  isTransportFailure: true,
  code,
  cause,
});

/** The body as JSON where it parses, else the text itself (an empty body stays ''). */
function parseBody(text: string): unknown {
  if (text === '') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * XMLHttpRequest rather than fetch: it is the one browser API that reports upload progress, which the evidence
 * progress bars need (docs/decisions/0014). Cookies always, no timeout, no retry (docs/requirements.md R-WEB-6).
 */
export const xhrTransport: Transport = (call) =>
  new Promise((resolve, reject) => {
    if (call.signal?.aborted) {
      reject(noAnswer('ERR_CANCELED'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = () => call.signal?.removeEventListener('abort', onAbort);
    xhr.open(call.method, call.url);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(call.headers)) xhr.setRequestHeader(name, value);
    const progress = call.onUploadProgress;
    if (progress) {
      xhr.upload.onprogress = (event) =>
        progress({ loaded: event.loaded, total: event.lengthComputable ? event.total : undefined });
    }
    xhr.onload = () => {
      settle();
      resolve({
        status: xhr.status,
        header: (name) => xhr.getResponseHeader(name),
        data: parseBody(xhr.responseText),
      });
    };
    xhr.onerror = () => {
      settle();
      reject(noAnswer('ERR_NETWORK'));
    };
    xhr.onabort = () => {
      settle();
      reject(noAnswer('ERR_CANCELED'));
    };
    xhr.ontimeout = () => {
      settle();
      reject(noAnswer('ECONNABORTED'));
    };
    call.signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(call.body);
  });

let transport: Transport = xhrTransport;
let baseUrl = env.apiBase;
let csrfFetch: Promise<void> | null = null;

/** Lets tests answer calls themselves, with the helper's behaviour unchanged around them. */
export function setTransport(next: Transport, base = ''): void {
  transport = next;
  baseUrl = base;
  csrfFetch = null;
}

/**
 * The CSRF token: `__Host-csrftoken` under https, `csrftoken` over http (docs/decisions/0006). The prefixed
 * one wins, since a plain one under https could have been planted by another subdomain.
 */
export function readCsrfToken(cookieString: string = document.cookie): string | null {
  return readCookie(SECURE_CSRF_COOKIE, cookieString) ?? readCookie(CSRF_COOKIE, cookieString);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The server sets the readable CSRF cookie on GET /api/csrf; concurrent callers share one fetch. */
async function ensureCsrfCookie(): Promise<string | null> {
  const existing = readCsrfToken();
  if (existing) return existing;
  csrfFetch ??= transport({
    method: 'GET',
    url: `${baseUrl}/api/csrf`,
    headers: { Accept: 'application/json' },
    body: null,
  })
    .then(() => undefined)
    .finally(() => {
      csrfFetch = null;
    });
  await csrfFetch;
  return readCsrfToken();
}

function withQuery(url: string, params: Record<string, unknown> | undefined): string {
  if (!params) return url;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) query.append(name, String(value));
  }
  const text = query.toString();
  if (!text) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${text}`;
}

/** A FormData goes as is, so the browser writes the multipart boundary; anything else goes as JSON. */
function encodeBody(data: unknown, headers: Record<string, string>): XMLHttpRequestBodyInit | null {
  if (data === undefined) return null;
  if (typeof FormData !== 'undefined' && data instanceof FormData) return data;
  headers['Content-Type'] = 'application/json';
  return JSON.stringify(data);
}

/** The request helper of R-WEB-6: returns the response body, throws a {@link RequestError} (R-WEB-7). */
export async function request<T = unknown>(
  method: HttpMethod,
  url: string,
  options: RequestOptions = {},
): Promise<T> {
  const upper = method.toUpperCase();
  let answer: HttpAnswer;
  try {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    const token = SAFE_METHODS.has(upper) ? readCsrfToken() : await ensureCsrfCookie();
    if (token) headers[CSRF_HEADER] = token;
    const body = encodeBody(options.data, headers);
    answer = await transport({
      method: upper,
      url: withQuery(`${baseUrl}${url}`, options.params),
      headers,
      body,
      signal: options.signal,
      onUploadProgress: options.onUploadProgress,
    });
  } catch (error) {
    throw toRequestError(error);
  }
  noteSessionExpires(answer.header(SESSION_EXPIRES_HEADER));
  if (answer.status >= 200 && answer.status < 300) return answer.data as T;
  const failed = toRequestError({ isTransportFailure: true, response: answer });
  if (failed.status === 401) noteUnauthorized(url);
  throw failed;
}
