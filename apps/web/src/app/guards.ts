import { paths } from '../config/paths';

export interface LocationLike {
  pathname: string;
  search: string;
  hash: string;
}

export interface RouteGuardMeta {
  requiresAuth?: boolean;
  requiresReportType?: boolean;
  /** The anonymous wizard also opens without a login for a draft holding an intake token (decision 0005). */
  allowsIntake?: boolean;
  /** A report page also opens without a login in a receipt session (decision 0005). */
  allowsReceipt?: boolean;
}

export interface GuardState {
  isLoggedIn: boolean;
  reportType: string;
  /** The draft holds an intake token, or the public code to renew one with. */
  hasIntake?: boolean;
  hasReceiptSession?: boolean;
}

export const DEFAULT_AFTER_LOGIN = paths.dashboard.to();

export const fullPath = (location: LocationLike): string =>
  `${location.pathname}${location.search}${location.hash}`;

/** Spec §2: a login-only route visited logged out goes to login with the full target (path, query, hash). */
export const loginRedirectFor = (location: LocationLike): string => paths.login.to(fullPath(location));

/**
 * Where to go after login. Only same-origin paths are followed: `//host`, `/\host`, absolute URLs and
 * `javascript:` would turn the login page into an open redirect, so they fall back to the dashboard.
 */
export function safeRedirect(raw: string | null | undefined, origin: string): string {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return DEFAULT_AFTER_LOGIN;
  try {
    const url = new URL(raw, origin);
    if (url.origin !== new URL(origin).origin) return DEFAULT_AFTER_LOGIN;
    const target = `${url.pathname}${url.search}${url.hash}`;
    // Coming back to login or logout after logging in would undo or repeat what was just done.
    if (url.pathname === paths.login.path || url.pathname === paths.logout.path) return DEFAULT_AFTER_LOGIN;
    return target;
  } catch {
    return DEFAULT_AFTER_LOGIN;
  }
}

/**
 * The navigation guard of spec §2 as a pure decision: where to send the visitor instead, or null to let the
 * route render. Login is checked first so a logged-out visitor is not bounced through /report.
 */
export function guardRedirect(
  meta: RouteGuardMeta[],
  state: GuardState,
  location: LocationLike,
): string | null {
  // Brief and formal reports still need an account (spec); only an anonymous draft may go on with a token.
  const byIntake =
    meta.some((m) => m.allowsIntake) && state.reportType === 'anonym' && state.hasIntake === true;
  const byReceipt = meta.some((m) => m.allowsReceipt) && state.hasReceiptSession === true;
  if (meta.some((m) => m.requiresAuth) && !state.isLoggedIn && !byIntake && !byReceipt)
    return loginRedirectFor(location);
  if (meta.some((m) => m.requiresReportType) && !state.reportType) return paths.report.to();
  return null;
}
