import axios, { type AxiosAdapter } from 'axios';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useLoginState } from './login-state';
import { createHttpClient, request, setHttpClient } from './request';
import { useSessionExpired } from './session-sync';

/** Answers every request with `status` and the given response headers. */
function answer(status: number, headers: Record<string, string> = {}) {
  const adapter: AxiosAdapter = async (config) => {
    const result = {
      status,
      data: status >= 400 ? { code: 'UNAUTHORIZED', message: '로그인' } : {},
      statusText: '',
      headers,
      config,
      request: {},
    };
    if (status >= 400) throw new axios.AxiosError('fail', undefined, config, {}, result);
    return result;
  };
  const client = createHttpClient('');
  client.defaults.adapter = adapter;
  setHttpClient(client);
}

beforeEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom; the helper reads document.cookie for the CSRF token.
  document.cookie = 'csrftoken=t; path=/';
});
afterEach(() => {
  useLoginState.getState().clear();
  useSessionExpired.getState().close();
});

describe('session kept in step with the server', () => {
  it('takes the expiry of every answer while signed in', async () => {
    useLoginState.getState().setExpires(1_000);
    answer(200, { 'x-session-expires': '9000' });
    await request('get', '/api/v1/report/');
    expect(useLoginState.getState().expires).toBe(9_000);
    expect(localStorage.getItem('loginExpires')).toBe('9000');
  });

  it('does not sign a logged-out page back in from a late answer', async () => {
    answer(200, { 'x-session-expires': '9000' });
    await request('get', '/api/v1/report/');
    expect(useLoginState.getState().expires).toBeNull();
  });

  it('opens the login dialog on a 401 to a signed-in page, keeping the draft', async () => {
    localStorage.setItem('ansim.reportDraft.reporter_name', '"홍길동"');
    useLoginState.getState().setExpires(Math.floor(Date.now() / 1000) + 600);
    answer(401);
    await expect(request('post', '/api/v1/file/')).rejects.toMatchObject({ status: 401 });
    expect(useSessionExpired.getState().isExpired).toBe(true);
    expect(localStorage.getItem('ansim.reportDraft.reporter_name')).toBe('"홍길동"');
  });

  it('leaves the session check and signed-out pages alone', async () => {
    answer(401);
    await expect(request('get', '/api/v1/user/')).rejects.toMatchObject({ status: 401 });
    expect(useSessionExpired.getState().isExpired).toBe(false);
    useLoginState.getState().setExpires(Math.floor(Date.now() / 1000) + 600);
    await expect(request('get', '/api/v1/token/')).rejects.toMatchObject({ status: 401 });
    expect(useSessionExpired.getState().isExpired).toBe(false);
  });
});
