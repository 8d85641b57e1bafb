import { CSRF_HEADER } from '@ansim/shared/constants';
import axios, { type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHttpClient, readCsrfToken, request, setHttpClient } from './request';
import { RequestError } from './request-error';

let seen: InternalAxiosRequestConfig[] = [];

function useAdapter(handler: (config: InternalAxiosRequestConfig) => { status: number; data?: unknown }) {
  const adapter: AxiosAdapter = async (config) => {
    seen.push(config);
    const { status, data } = handler(config);
    const result = { status, data, statusText: '', headers: {}, config, request: {} };
    if (status >= 400) throw new axios.AxiosError('fail', undefined, config, {}, result);
    return result;
  };
  const client = createHttpClient('');
  client.defaults.adapter = adapter;
  setHttpClient(client);
}

const setCookie = (value: string) => {
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API; the helper reads document.cookie.
  document.cookie = value;
};

const clearCookies = () => {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) setCookie(`${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`);
  }
};

describe('request helper (spec §7)', () => {
  beforeEach(() => {
    seen = [];
    clearCookies();
  });
  afterEach(clearCookies);

  it('upper-cases the method, sends cookies, has no timeout and returns the body', async () => {
    useAdapter(() => ({ status: 200, data: { expires: 123 } }));
    await expect(request('get', '/api/v1/token/')).resolves.toEqual({ expires: 123 });
    expect(seen[0]!.method?.toUpperCase()).toBe('GET');
    expect(seen[0]!.withCredentials).toBe(true);
    expect(seen[0]!.timeout).toBe(0);
  });

  it('fetches /api/csrf first when the cookie is missing, then sends the token header', async () => {
    useAdapter((config) => {
      if (config.url === '/api/csrf') {
        setCookie('csrftoken=tok123; path=/');
        return { status: 204 };
      }
      return { status: 201, data: { ok: true } };
    });
    await request('post', '/api/v1/user/', { data: { email: 'a@b.c' } });
    expect(seen.map((config) => config.url)).toEqual(['/api/csrf', '/api/v1/user/']);
    expect(seen[1]!.headers.get(CSRF_HEADER)).toBe('tok123');
    expect(seen[1]!.data).toBe(JSON.stringify({ email: 'a@b.c' }));
  });

  it('reuses an existing csrftoken cookie without fetching', async () => {
    setCookie('csrftoken=existing; path=/');
    useAdapter(() => ({ status: 204 }));
    await request('delete', '/api/v1/token/');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.get(CSRF_HEADER)).toBe('existing');
  });

  it('sends FormData as is, without a content type so the browser adds the boundary', async () => {
    setCookie('csrftoken=t; path=/');
    useAdapter(() => ({ status: 201, data: { id: 'f1' } }));
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.txt');
    await request('post', '/api/v1/file/', { data: form });
    expect(seen[0]!.data).toBe(form);
    expect(seen[0]!.headers.get('Content-Type')).toBeFalsy();
  });

  it('reads the __Host-csrftoken of an https deployment, preferred over a plain csrftoken', () => {
    // jsdom serves http, where `__Host-` cookies are refused, so the reader is given the cookie string.
    expect(readCsrfToken('csrftoken=planted; __Host-csrftoken=hosttok')).toBe('hosttok');
    expect(readCsrfToken('__Host-csrftoken=hosttok')).toBe('hosttok');
    expect(readCsrfToken('csrftoken=plain')).toBe('plain');
    expect(readCsrfToken('other=1')).toBeNull();
  });

  it('maps failures to the error catalogue', async () => {
    useAdapter(() => ({ status: 401, data: { code: 'UNAUTHORIZED', message: 'no' } }));
    const error = await request('get', '/api/v1/user/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).message).toBe('로그인이 필요합니다.');
  });

  it('is abortable', async () => {
    const controller = new AbortController();
    controller.abort();
    setHttpClient(createHttpClient(''));
    const error = await request('get', '/api/v1/user/', { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect((error as RequestError).code).toBe('ERR_CANCELED');
    expect((error as RequestError).message).toBe('요청이 취소되었습니다.');
  });
});
