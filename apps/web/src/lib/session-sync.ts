import { create } from 'zustand';
import { useLoginState } from './login-state';

/**
 * Keeps the client's idea of the session in step with the server's. Every API answer to a signed-in request
 * carries `X-Session-Expires` (the server slides the idle limit on use), so someone writing a long account
 * stays signed in here as long as they are there. A 401 on a page that thought it was signed in opens a
 * dialog (components/session-expired-dialog.tsx) that sends them to log in and back to the same place; the
 * report draft lives in this device's storage and is left alone.
 */
interface SessionExpiredState {
  isExpired: boolean;
  open: () => void;
  close: () => void;
}

export const useSessionExpired = create<SessionExpiredState>((set) => ({
  isExpired: false,
  open: () => set({ isExpired: true }),
  close: () => set({ isExpired: false }),
}));

/** A server's `X-Session-Expires` value; ignored once logged out here (a late answer must not log back in). */
export function noteSessionExpires(value: unknown): void {
  const expires = Number(value);
  if (!Number.isInteger(expires) || expires <= 0) return;
  lastServerAnswerAt = Date.now();
  const state = useLoginState.getState();
  if (state.expires === null || state.expires === expires) return;
  state.setExpires(expires);
}

/** The session check and the login itself answer 401 as part of their job; every other 401 means "expired". */
const OWN_401 = /^\/api\/v1\/token\/?(\?|$)/;

export function noteUnauthorized(url: string): void {
  if (OWN_401.test(url)) return;
  if (useLoginState.getState().expires === null) return;
  useSessionExpired.getState().open();
}

let lastServerAnswerAt = 0;

/** When the server last answered a signed-in request (epoch ms), for the keep-alive (session-keep-alive.ts). */
export const lastServerAnswer = (): number => lastServerAnswerAt;

/** The keep-alive's own call counts as an answer from its start, so a burst of activity asks once. */
export function noteServerAsked(at: number): void {
  lastServerAnswerAt = at;
}
