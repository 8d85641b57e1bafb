import {
  CSRF_COOKIE,
  MFA_CHALLENGE_COOKIE,
  SECURE_CSRF_COOKIE,
  SECURE_MFA_CHALLENGE_COOKIE,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
} from '@ansim/shared/constants';
import type { Config } from '../config.ts';

/**
 * The cookie names of this deployment. Under https only the `__Host-` names are read or written: accepting the
 * plain names too would let a sibling subdomain plant a cookie the prefix is there to refuse
 * (docs/decisions/0006). Over plain http the browser refuses `__Host-` cookies, so the plain names are kept.
 */
export function cookieNames(config: Pick<Config, 'isHttps'>): {
  session: string;
  csrf: string;
  mfaChallenge: string;
} {
  return config.isHttps
    ? { session: SECURE_SESSION_COOKIE, csrf: SECURE_CSRF_COOKIE, mfaChallenge: SECURE_MFA_CHALLENGE_COOKIE }
    : { session: SESSION_COOKIE, csrf: CSRF_COOKIE, mfaChallenge: MFA_CHALLENGE_COOKIE };
}
