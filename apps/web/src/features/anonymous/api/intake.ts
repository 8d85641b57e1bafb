import type { IntakeBody, IntakeInfo, IntakeSession } from '@ansim/shared/contract/intake';
import { request } from '../../../lib/request';

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
