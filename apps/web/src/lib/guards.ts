import { isHandlerRole } from '@ansim/shared/constants';
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

/** R-WEB-2: a login-only route visited logged out goes to login with the full target (path, query, hash). */
export const loginRedirectFor = (location: LocationLike): string => paths.login.to(fullPath(location));

/**
 * A requested redirect if it is safe to follow, else null. Only same-origin paths are followed: `//host`,
 * `/\\host`, absolute URLs and `javascript:` would turn the login page into an open redirect.
 */
function followableRedirect(raw: string | null | undefined, origin: string): string | null {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  try {
    const url = new URL(raw, origin);
    if (url.origin !== new URL(origin).origin) return null;
    // Coming back to login or logout after logging in would undo or repeat what was just done.
    if (url.pathname === paths.login.path || url.pathname === paths.logout.path) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** Where to go after login when the role is not known: the requested page, else the dashboard. */
export function safeRedirect(raw: string | null | undefined, origin: string): string {
  return followableRedirect(raw, origin) ?? DEFAULT_AFTER_LOGIN;
}

/**
 * Where to go after login: the page that was asked for, else the person's home — the operator console for the
 * platform's operator, the case list for a case handler, the member dashboard for everyone else.
 */
export function afterLoginPath(
  raw: string | null | undefined,
  origin: string,
  role: string | undefined,
): string {
  const home =
    role === 'operator'
      ? paths.operator.to()
      : isHandlerRole(role)
        ? paths.manager.to()
        : DEFAULT_AFTER_LOGIN;
  return followableRedirect(raw, origin) ?? home;
}

/**
 * The navigation guard of R-WEB-2 as a pure decision: where to send the visitor instead, or null to let the
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
