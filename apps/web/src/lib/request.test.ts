import { CSRF_HEADER } from '@ansim/shared/constants';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HttpCall, readCsrfToken, request, setTransport, xhrTransport } from './request';
import { RequestError } from './request-error';

let seen: HttpCall[] = [];

function answerWith(handler: (call: HttpCall) => { status: number; data?: unknown }) {
  setTransport(async (call) => {
    seen.push(call);
    const { status, data } = handler(call);
    return { status, header: () => null, data: data ?? '' };
  });
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

describe('request helper (R-WEB-6)', () => {
  beforeEach(() => {
    seen = [];
    clearCookies();
  });
  afterEach(clearCookies);

  it('upper-cases the method, asks for JSON and returns the body', async () => {
    answerWith(() => ({ status: 200, data: { expires: 123 } }));
    await expect(request('get', '/api/v1/token/')).resolves.toEqual({ expires: 123 });
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.headers.Accept).toBe('application/json');
    expect(seen[0]!.body).toBeNull();
  });

  it('fetches /api/csrf first when the cookie is missing, then sends the token header', async () => {
    answerWith((call) => {
      if (call.url === '/api/csrf') {
        setCookie('csrftoken=tok123; path=/');
        return { status: 204 };
      }
      return { status: 201, data: { ok: true } };
    });
    await request('post', '/api/v1/user/', { data: { email: 'a@b.c' } });
    expect(seen.map((call) => call.url)).toEqual(['/api/csrf', '/api/v1/user/']);
    expect(seen[1]!.headers[CSRF_HEADER]).toBe('tok123');
    expect(seen[1]!.headers['Content-Type']).toBe('application/json');
    expect(seen[1]!.body).toBe(JSON.stringify({ email: 'a@b.c' }));
  });

  it('reuses an existing csrftoken cookie without fetching', async () => {
    setCookie('csrftoken=existing; path=/');
    answerWith(() => ({ status: 204 }));
    await request('delete', '/api/v1/token/');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers[CSRF_HEADER]).toBe('existing');
  });

  it('sends FormData as is, without a content type so the browser adds the boundary', async () => {
    setCookie('csrftoken=t; path=/');
    answerWith(() => ({ status: 201, data: { id: 'f1' } }));
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.txt');
    await request('post', '/api/v1/file/', { data: form });
    expect(seen[0]!.body).toBe(form);
    expect(seen[0]!.headers['Content-Type']).toBeUndefined();
  });

  it('writes the query string from params, leaving out empty ones', async () => {
    answerWith(() => ({ status: 200, data: [] }));
    await request('get', '/api/v1/manager/reports/', {
      params: { page: 2, q: '김 과장', status: undefined, type: null },
    });
    expect(seen[0]!.url).toBe('/api/v1/manager/reports/?page=2&q=%EA%B9%80+%EA%B3%BC%EC%9E%A5');
  });

  it('reads the __Host-csrftoken of an https deployment, preferred over a plain csrftoken', () => {
    // jsdom serves http, where `__Host-` cookies are refused, so the reader is given the cookie string.
    expect(readCsrfToken('csrftoken=planted; __Host-csrftoken=hosttok')).toBe('hosttok');
    expect(readCsrfToken('__Host-csrftoken=hosttok')).toBe('hosttok');
    expect(readCsrfToken('csrftoken=plain')).toBe('plain');
    expect(readCsrfToken('other=1')).toBeNull();
  });

  it('maps failures to the error catalogue', async () => {
    answerWith(() => ({ status: 401, data: { code: 'UNAUTHORIZED', message: 'no' } }));
    const error = await request('get', '/api/v1/user/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).message).toBe('로그인이 필요합니다.');
  });

  it('keeps the server’s code and field messages of a 400', async () => {
    answerWith(() => ({
      status: 400,
      data: { code: 'VALIDATION_ERROR', message: '입력값을 확인해 주세요.', details: { email: '필수' } },
    }));
    const error = (await request('post', '/api/v1/user/', { data: {} }).catch(
      (e: unknown) => e,
    )) as RequestError;
    expect(error.status).toBe(400);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details).toEqual({ email: '필수' });
  });

  it('is abortable, through the browser transport itself', async () => {
    setTransport(xhrTransport);
    const controller = new AbortController();
    controller.abort();
    const error = await request('get', '/api/v1/user/', { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect((error as RequestError).code).toBe('ERR_CANCELED');
    expect((error as RequestError).message).toBe('요청이 취소되었습니다.');
  });

  it('says the network failed when no answer came', async () => {
    setTransport(xhrTransport, 'http://127.0.0.1:9');
    const error = (await request('get', '/api/v1/user/').catch((e: unknown) => e)) as RequestError;
    expect(error.status).toBe(0);
    expect(error.code).toBe('ERR_NETWORK');
  });
});
