import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLoginState } from './login-state';
import { type HttpAnswer, request, setTransport } from './request';
import { installSessionKeepAlive, KEEP_ALIVE_AFTER_MS, keepSessionAlive } from './session-keep-alive';
import { useSessionExpired } from './session-sync';

/** Answers every request with `status` and the given response headers. */
function answer(status: number, headers: Record<string, string> = {}) {
  setTransport(async () => answerOf(status, headers));
}

function answerOf(status: number, headers: Record<string, string> = {}): HttpAnswer {
  return {
    status,
    header: (name) => headers[name.toLowerCase()] ?? null,
    data: status >= 400 ? { code: 'UNAUTHORIZED', message: '로그인' } : {},
  };
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

describe('keeping a working session alive', () => {
  it('slides the session on activity after a quiet while, and not before', async () => {
    // One clock for the helper and the answers it notes, as in a browser.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = Date.now() + 10 * KEEP_ALIVE_AFTER_MS;
      vi.setSystemTime(start);
      useLoginState.getState().setExpires(Math.floor(start / 1000) + 3600);
      let calls = 0;
      setTransport(async () => {
        calls += 1;
        return answerOf(200, { 'x-session-expires': '99999999999' });
      });
      await keepSessionAlive();
      expect(calls).toBe(1);
      expect(useLoginState.getState().expires).toBe(99_999_999_999);
      vi.setSystemTime(start + KEEP_ALIVE_AFTER_MS - 1);
      await keepSessionAlive();
      expect(calls).toBe(1);
      vi.setSystemTime(start + KEEP_ALIVE_AFTER_MS + 1);
      await keepSessionAlive();
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens the login dialog when the session ended meanwhile', async () => {
    const start = Date.now() + 100 * KEEP_ALIVE_AFTER_MS;
    useLoginState.getState().setExpires(Math.floor(start / 1000) + 600);
    answer(401);
    await keepSessionAlive(start);
    expect(useSessionExpired.getState().isExpired).toBe(true);
  });

  it('counts reading as work: a wheel turn or a scroll slides the session like a key press', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      let now = Date.now();
      for (const type of ['wheel', 'scroll', 'keydown', 'pointerdown']) {
        // Each event comes long after the previous answer, so each one is due to ask the server.
        now += 1000 * KEEP_ALIVE_AFTER_MS;
        vi.setSystemTime(now);
        useLoginState.getState().setExpires(Math.floor(now / 1000) + 3600);
        const asked = new Promise<void>((resolve) => {
          setTransport(async () => {
            resolve();
            return answerOf(200);
          });
        });
        const page = new EventTarget();
        installSessionKeepAlive(page as unknown as Window);
        page.dispatchEvent(new Event(type));
        await expect(asked, type).resolves.toBeUndefined();
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('does nothing on a signed-out page', async () => {
    answer(401);
    await keepSessionAlive(Date.now() + 1000 * KEEP_ALIVE_AFTER_MS);
    expect(useSessionExpired.getState().isExpired).toBe(false);
  });
});
