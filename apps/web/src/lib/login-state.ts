import { create } from 'zustand';
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

interface TokenResponse {
  expires: number;
}

/** Loaded on demand so the landing page does not pay for axios before it makes a call. */
const loadRequest = () => import('./request');

export async function login(body: { email: string; password: string; captcha: string }): Promise<number> {
  const { request } = await loadRequest();
  const { expires } = await request<TokenResponse>('post', '/api/v1/token/', { data: body });
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
  try {
    const { request } = await loadRequest();
    const { expires } = await request<TokenResponse>('get', '/api/v1/token/');
    useLoginState.getState().setExpires(expires);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'UNAUTHORIZED') useLoginState.getState().clear();
    else console.warn('Could not refresh the login status', error);
  }
}
