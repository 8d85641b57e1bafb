import type { InvitationKind } from './api/invitation-api';

/**
 * Invitation links carry `?token=`. The token is kept for this tab only (sessionStorage, one key per kind): it
 * authorises one statement and should not outlive the visit on a shared computer, and a second tab opened
 * from another mail keeps its own.
 */
const tokenKey = (kind: InvitationKind) => `ansim.invitationToken.${kind}`;

function session(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // Storage can be disabled; the token then lives only as long as this page's memory.
    return null;
  }
}

/** The token of the last link opened in this tab, kept when storage is unavailable. */
const memory = new Map<InvitationKind, string>();

export function readInvitationToken(kind: InvitationKind): string | null {
  return session()?.getItem(tokenKey(kind)) ?? memory.get(kind) ?? null;
}

export function forgetInvitationToken(kind: InvitationKind): void {
  memory.delete(kind);
  session()?.removeItem(tokenKey(kind));
}

/** The address without its `token` parameter; other parameters and the hash stay as they were. */
export function withoutToken(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('token');
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Reads `?token=` from the current address, keeps it for this tab and takes it out of the address bar at
 * once, so it is not left in the history, a bookmark, a screenshot or a shared screen. Returns the token of
 * this tab (the stored one when the address has none, e.g. after a reload).
 */
export function captureInvitationToken(
  kind: InvitationKind,
  location: Location = window.location,
): string | null {
  const fromUrl = new URLSearchParams(location.search).get('token')?.trim();
  if (fromUrl) {
    memory.set(kind, fromUrl);
    try {
      session()?.setItem(tokenKey(kind), fromUrl);
    } catch {
      // Quota or privacy mode: the in-memory copy above still serves this page.
    }
    // React Router's own state is passed along so its history index stays intact.
    window.history.replaceState(window.history.state, '', withoutToken(location.href));
  }
  return readInvitationToken(kind);
}
