import type { LoginResponse, SessionExpires } from '@ansim/shared/contract/token';
import { clearDrafts } from './draft-storage';
import { useLoginState } from './login-state';

/**
 * Logging in and out: calls that change the session, apart from the store (login-state.ts) that every page
 * reads, so the store and the request helper do not import each other.
 */

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

/** R-WEB-10: the server call may fail (offline, already expired); local state is cleared regardless. */
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
