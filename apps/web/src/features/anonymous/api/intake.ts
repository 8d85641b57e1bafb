import { request } from '../../../lib/request';

export const INTAKE_PATH = '/api/v1/intake/';

export interface IntakeGrant {
  token: string;
  expires: number | string;
  company: { name: string };
}

export interface IntakeInfo {
  company: { name: string };
  help_text: string;
}

/**
 * POST /api/v1/intake/: a token for one anonymous draft. A member sends nothing (the server takes their
 * company from the session and keeps no link to them); a visitor of `/c/{code}` sends the code and a captcha.
 */
export const createIntake = (body: { code?: string; captcha?: string } = {}) =>
  request<IntakeGrant>('post', INTAKE_PATH, { data: body });

/** GET /api/v1/intake/{code}: the company and its help text for the public intake page; 404 if unknown. */
export const fetchIntakeInfo = (code: string, signal?: AbortSignal) =>
  request<IntakeInfo>('get', `${INTAKE_PATH}${encodeURIComponent(code)}`, { signal });
