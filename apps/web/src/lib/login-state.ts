import type { SessionExpires } from '@ansim/shared/contract/token';
import { create } from 'zustand';
import { env } from '../config/env';

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

/** docs/requirements.md R-WEB-10: logged in while the stored expiry (epoch seconds) is later than now. */
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

/** R-WEB-10: runs at start-up. UNAUTHORIZED ends the local session; any other failure is only logged. */
export async function refreshLoginStatus(): Promise<void> {
  // A plain fetch: this runs on every first visit, the landing page's included, which must not pay for the request helper
  // (the 150 KB budget of docs/requirements.md R-PERF-2 on what a first visit transfers). A GET needs no CSRF token.
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
