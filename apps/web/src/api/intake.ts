import type { IntakeBody, IntakeInfo, IntakeSession } from '@ansim/shared/contract/intake';
import { useEffect, useState } from 'react';
import { request } from '../lib/request';
import { isRequestError } from '../lib/request-error';

export const INTAKE_PATH = '/api/v1/intake/';

export type { IntakeInfo, IntakeSession as IntakeGrant };

/**
 * POST /api/v1/intake/: a token for one anonymous draft. A member sends nothing (the server takes their
 * company from the session and keeps no link to them); a visitor of `/c/{code}` sends the code and a captcha.
 */
export const createIntake = (body: IntakeBody = {}) =>
  request<IntakeSession>('post', INTAKE_PATH, { data: body });

/** GET /api/v1/intake/{code}: the company and its help text for the public intake page; 404 if unknown. */
export const fetchIntakeInfo = (code: string, signal?: AbortSignal) =>
  request<IntakeInfo>('get', `${INTAKE_PATH}${encodeURIComponent(code)}`, { signal });

export type IntakeInfoState =
  | { status: 'pending' }
  | { status: 'error'; error: unknown }
  | { status: 'success'; data: IntakeInfo };

/** How long to wait before each new try of a read that failed for a reason other than an unknown code. */
const RETRY_DELAYS_MS = [1_000, 2_000];

/**
 * The intake page's one read, without the query cache: /c/{code} is opened from a poster or a mail on a phone,
 * and R-PERF-2 gives its first visit 150 KB, of which react-query alone would be 12. An unknown code is
 * final; a dropped connection is tried twice more, as the query cache would.
 */
export function useIntakeInfo(code: string): IntakeInfoState {
  const [state, setState] = useState<IntakeInfoState>({ status: 'pending' });
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ status: 'pending' });
    const load = (attempt: number) => {
      fetchIntakeInfo(code, controller.signal).then(
        (data) => setState({ status: 'success', data }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const delay = RETRY_DELAYS_MS[attempt];
          if (delay === undefined || isRequestError(error, 'NOT_FOUND')) setState({ status: 'error', error });
          else timer = setTimeout(() => load(attempt + 1), delay);
        },
      );
    };
    load(0);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [code]);
  return state;
}
