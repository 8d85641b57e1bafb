import {
  CSRF_COOKIE,
  CSRF_HEADER,
  SECURE_CSRF_COOKIE,
  SESSION_EXPIRES_HEADER,
} from '@ansim/shared/constants';
import axios, { type AxiosInstance } from 'axios';
import { env } from '../config/env';
import { readCookie } from './cookies';
import { toRequestError } from './request-error';
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

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** axios lower-cases response header names. */
const EXPIRES_HEADER = SESSION_EXPIRES_HEADER.toLowerCase();

/**
 * Spec §7: same origin unless a build-time base is set, cookies always, no default timeout (0 = none) and
 * no retry — a retried POST could file a report twice.
 */
export function createHttpClient(baseURL: string = env.apiBase): AxiosInstance {
  return axios.create({
    baseURL,
    withCredentials: true,
    timeout: 0,
    headers: { Accept: 'application/json' },
  });
}

let client = createHttpClient();
let csrfFetch: Promise<void> | null = null;

/** Lets tests swap the transport (e.g. an axios adapter) without touching the helper's behaviour. */
export function setHttpClient(next: AxiosInstance): void {
  client = next;
  csrfFetch = null;
}

/**
 * The CSRF token: `__Host-csrftoken` under https, `csrftoken` over http (docs/decisions/0006). The prefixed
 * one wins, since a plain one under https could have been planted by another subdomain.
 */
export function readCsrfToken(cookieString: string = document.cookie): string | null {
  return readCookie(SECURE_CSRF_COOKIE, cookieString) ?? readCookie(CSRF_COOKIE, cookieString);
}

/** The server sets the readable CSRF cookie on GET /api/csrf; concurrent callers share one fetch. */
async function ensureCsrfCookie(): Promise<string | null> {
  const existing = readCsrfToken();
  if (existing) return existing;
  csrfFetch ??= client
    .get('/api/csrf')
    .then(() => undefined)
    .finally(() => {
      csrfFetch = null;
    });
  await csrfFetch;
  return readCsrfToken();
}

/** The request helper of spec §7: returns the response body, throws a {@link RequestError} (spec §8). */
export async function request<T = unknown>(
  method: HttpMethod,
  url: string,
  options: RequestOptions = {},
): Promise<T> {
  const upper = method.toUpperCase();
  try {
    const headers: Record<string, string> = { ...options.headers };
    const token = SAFE_METHODS.has(upper) ? readCsrfToken() : await ensureCsrfCookie();
    if (token) headers[CSRF_HEADER] = token;
    const isFormData = typeof FormData !== 'undefined' && options.data instanceof FormData;
    const response = await client.request<T>({
      method: upper,
      url,
      data: options.data,
      params: options.params,
      signal: options.signal,
      onUploadProgress: options.onUploadProgress,
      headers,
      // Removing the content type lets the browser write the multipart boundary itself. `false` (not a
      // delete) also stops axios from filling in its form-urlencoded default for POST afterwards.
      transformRequest: isFormData
        ? [
            (data, requestHeaders) => {
              requestHeaders.set('Content-Type', false);
              return data;
            },
          ]
        : undefined,
    });
    noteSessionExpires(response.headers?.[EXPIRES_HEADER]);
    return response.data;
  } catch (error) {
    const failed = toRequestError(error);
    const response = (error as { response?: { headers?: Record<string, unknown> } } | null)?.response;
    noteSessionExpires(response?.headers?.[EXPIRES_HEADER]);
    if (failed.status === 401) noteUnauthorized(url);
    throw failed;
  }
}
