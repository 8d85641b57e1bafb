import { afterEach, describe, expect, it, vi } from 'vitest';
import { DRAFT_PREFIX, writeDraftField } from './draft-storage';
import { login, loginWithMfaCode, logout } from './login-actions';
import { isLoggedInAt, LOGIN_EXPIRES_KEY, refreshLoginStatus, useLoginState } from './login-state';
import { RequestError } from './request-error';

const request = vi.fn();
vi.mock('./request', () => ({ request: (...args: unknown[]) => request(...args) }));

afterEach(() => {
  request.mockReset();
  localStorage.clear();
});

describe('login state', () => {
  it('is logged in only while the expiry is in the future', () => {
    expect(isLoggedInAt(null, 100)).toBe(false);
    expect(isLoggedInAt(100, 100)).toBe(false);
    expect(isLoggedInAt(101, 100)).toBe(true);
  });

  it('logout clears the expiry and every report draft key even when the server call fails', async () => {
    useLoginState.getState().setExpires(9_999_999_999);
    writeDraftField('report_type', 'formal');
    writeDraftField('acts', []);
    localStorage.setItem('ansim.colorMode', 'dark');
    request.mockRejectedValueOnce(new RequestError(0, { code: 'ERR_NETWORK', message: 'x' }));
    await logout();
    expect(request).toHaveBeenCalledWith('delete', '/api/v1/token/');
    expect(localStorage.getItem(LOGIN_EXPIRES_KEY)).toBeNull();
    expect(useLoginState.getState().expires).toBeNull();
    expect(Object.keys(localStorage).filter((key) => key.startsWith(DRAFT_PREFIX))).toEqual([]);
    expect(localStorage.getItem('ansim.colorMode')).toBe('dark');
  });

  it('refresh stores the server expiry, clears on 401 and only logs other errors', async () => {
    const answers = [
      new Response(JSON.stringify({ expires: 2_000_000_000 }), { status: 200 }),
      new Response('{}', { status: 502 }),
      new Response('{"code":"UNAUTHORIZED"}', { status: 401 }),
    ];
    const fetchMock = vi.fn(async () => answers.shift()!);
    vi.stubGlobal('fetch', fetchMock);
    try {
      await refreshLoginStatus();
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/v1/token/',
        expect.objectContaining({ credentials: 'include' }),
      );
      expect(localStorage.getItem(LOGIN_EXPIRES_KEY)).toBe('2000000000');

      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      await refreshLoginStatus();
      expect(useLoginState.getState().expires).toBe(2_000_000_000);
      expect(warn).toHaveBeenCalled();

      await refreshLoginStatus();
      expect(useLoginState.getState().expires).toBeNull();
      warn.mockRestore();
      // The landing page's first visit never loads the request helper for this.
      expect(request).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('stores no expiry while the second factor is pending, and stores it once the code is accepted', async () => {
    useLoginState.getState().clear();
    request.mockResolvedValueOnce({ mfa_required: true });
    expect(await login({ email: 'a@b.example', password: 'pw', captcha: 'c' })).toEqual({
      mfaRequired: true,
    });
    expect(useLoginState.getState().expires).toBeNull();
    expect(localStorage.getItem(LOGIN_EXPIRES_KEY)).toBeNull();

    request.mockResolvedValueOnce({ expires: 2_000_000_000 });
    await loginWithMfaCode('123456');
    expect(request).toHaveBeenLastCalledWith('post', '/api/v1/token/mfa', { data: { code: '123456' } });
    expect(useLoginState.getState().expires).toBe(2_000_000_000);
  });
});
