import type { LoginResponse, SessionExpires } from '@ansim/shared/contract/token';
import { create } from 'zustand';
import { env } from '../config/env';
import { clearDrafts } from './draft-storage';

export const LOGIN_EXPIRES_KEY = 'loginExpires';

function readStoredExpires(): number | null {
  try {
    const raw = localStorage.getItem(LOGIN_EXPIRES_KEY);
    const value = raw === null ? Number.NaN : Number(raw);
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

function writeStoredExpires(expires: number | null): void {
  try {
    if (expires === null) localStorage.removeItem(LOGIN_EXPIRES_KEY);
    else localStorage.setItem(LOGIN_EXPIRES_KEY, String(expires));
  } catch {
    // Storage can be unavailable; the in-memory state still works for this tab.
  }
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Spec §4: logged in while the stored expiry (epoch seconds) is later than now. */
export function isLoggedInAt(expires: number | null, now: number = nowSeconds()): boolean {
  return expires !== null && expires > now;
}

interface LoginState {
  expires: number | null;
  setExpires: (expires: number) => void;
  clear: () => void;
}

export const useLoginState = create<LoginState>((set) => ({
  expires: readStoredExpires(),
  setExpires: (expires) => {
    writeStoredExpires(expires);
    set({ expires });
  },
  clear: () => {
    writeStoredExpires(null);
    set({ expires: null });
  },
}));

if (typeof window !== 'undefined') {
  // Logging in or out in another tab changes this tab's state too.
  window.addEventListener('storage', (event) => {
    if (event.key === LOGIN_EXPIRES_KEY || event.key === null)
      useLoginState.setState({ expires: readStoredExpires() });
  });
}

export const isLoggedIn = (): boolean => isLoggedInAt(useLoginState.getState().expires);
export const useIsLoggedIn = (): boolean => useLoginState((state) => isLoggedInAt(state.expires));

type TokenResponse = SessionExpires;

/** Loaded on demand so the landing page does not pay for the request helper before it makes a call. */
const loadRequest = () => import('./request');

/** A finished login, or one whose password was right and whose second factor the server now asks for. */
export type LoginResult = { expires: number } | { mfaRequired: true };

export async function login(body: {
  email: string;
  password: string;
  captcha: string;
}): Promise<LoginResult> {
  const { request } = await loadRequest();
  const answer = await request<LoginResponse>('post', '/api/v1/token/', {
    data: body,
  });
  // No session yet: the server holds the half-finished login and names it in an HttpOnly cookie.
  if ('mfa_required' in answer) return { mfaRequired: true };
  useLoginState.getState().setExpires(answer.expires);
  return { expires: answer.expires };
}

/** Second step of a login: a code from the authenticator app, or a recovery code. */
export async function loginWithMfaCode(code: string): Promise<number> {
  const { request } = await loadRequest();
  const { expires } = await request<TokenResponse>('post', '/api/v1/token/mfa', { data: { code } });
  useLoginState.getState().setExpires(expires);
  return expires;
}

/** Second step of a login with a passkey: the browser asks the authenticator, the server checks its answer. */
export async function loginWithPasskey(): Promise<number> {
  const [{ request }, { startAuthentication }] = await Promise.all([
    loadRequest(),
    import('@simplewebauthn/browser'),
  ]);
  const options = await request<Parameters<typeof startAuthentication>[0]['optionsJSON']>(
    'post',
    '/api/v1/token/mfa/passkey/options',
  );
  const response = await startAuthentication({ optionsJSON: options });
  const { expires } = await request<TokenResponse>('post', '/api/v1/token/mfa/passkey/verify', {
    data: { response },
  });
  useLoginState.getState().setExpires(expires);
  return expires;
}

/** Spec §4 + issue: the server call may fail (offline, already expired); local state is cleared regardless. */
export async function logout(): Promise<void> {
  try {
    const { request } = await loadRequest();
    await request('delete', '/api/v1/token/');
  } catch (error) {
    console.warn('Logout request failed; clearing the local session anyway', error);
  }
  useLoginState.getState().clear();
  clearDrafts();
}

/** Spec §4: runs at start-up. UNAUTHORIZED ends the local session; any other failure is only logged. */
export async function refreshLoginStatus(): Promise<void> {
  // A plain fetch: this runs on every first visit, the landing page's included, which must not pay for the request helper
  // (issue 16's 150 KB budget on what a first visit transfers). A GET needs no CSRF token.
  try {
    const response = await fetch(`${env.apiBase}/api/v1/token/`, {
      credentials: 'include',
      headers: { Accept: 'application/json' },
    });
    // The body is read whatever the status, so the response is finished and its connection freed.
    const body = (await response.json().catch(() => null)) as TokenResponse | null;
    if (response.status === 401) return useLoginState.getState().clear();
    if (!response.ok || !body) throw new Error(`GET /api/v1/token/ answered ${response.status}`);
    useLoginState.getState().setExpires(body.expires);
  } catch (error) {
    console.warn('Could not refresh the login status', error);
  }
}
