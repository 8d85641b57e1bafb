import { useLoginState } from './login-state';
import { lastServerAnswer, noteServerAsked, useSessionExpired } from './session-sync';

/**
 * Typing a long account or reading a case makes no API call for a long while, yet it is work: the server's
 * idle limit (2 h) must not end the session under it. On a key press or a pointer press on a signed-in page,
 * when the server has not been heard from for {@link KEEP_ALIVE_AFTER_MS}, the session check slides it. A
 * 401 there means it ended meanwhile (two hours away): the login dialog opens, as for any other call.
 */
export const KEEP_ALIVE_AFTER_MS = 5 * 60_000;

export async function keepSessionAlive(now: number = Date.now()): Promise<void> {
  if (now - lastServerAnswer() < KEEP_ALIVE_AFTER_MS) return;
  // A tab whose expiry has just passed asks too: someone back from a long break learns it at the first key
  // press, through the login dialog, instead of at the end of the step.
  if (useLoginState.getState().expires === null) return;
  noteServerAsked(now);
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
