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

/**
 * Typing a long account or reading a case makes no API call for a long while, yet it is work: the server's
 * idle limit (2 h) must not end the session under it. On a key press or a pointer press on a signed-in page,
 * when the server has not been heard from for {@link KEEP_ALIVE_AFTER_MS}, the session check slides it. A
 * 401 there means it ended meanwhile (two hours away): the login dialog opens, as for any other call.
 */
export const KEEP_ALIVE_AFTER_MS = 5 * 60_000;
let lastServerAnswerAt = 0;

export async function keepSessionAlive(now: number = Date.now()): Promise<void> {
  if (now - lastServerAnswerAt < KEEP_ALIVE_AFTER_MS) return;
  // A tab whose expiry has just passed asks too: someone back from a long break learns it at the first key
  // press, through the login dialog, instead of at the end of the step.
  if (useLoginState.getState().expires === null) return;
  lastServerAnswerAt = now;
  const { request } = await import('./request');
  try {
    await request('get', '/api/v1/token/');
  } catch (error) {
    const status = (error as { status?: unknown } | null)?.status;
    if (status === 401 && useLoginState.getState().expires !== null) useSessionExpired.getState().open();
  }
}

/**
 * What counts as being there: typing, a tap or click, and reading, which on a long case is the mouse wheel or
 * a scroll with no press at all. Scroll does not bubble, so the listeners capture.
 */
const ACTIVITY_EVENTS = ['keydown', 'pointerdown', 'wheel', 'scroll'] as const;

export function installSessionKeepAlive(target: Pick<Window, 'addEventListener'> = window): void {
  const onActivity = () => void keepSessionAlive();
  for (const type of ACTIVITY_EVENTS)
    target.addEventListener(type, onActivity, { capture: true, passive: true });
}
