import { z } from 'zod';
import { loginBody } from '../auth.ts';
import { mfaLoginBody } from '../mfa.ts';
import { epochSeconds, jsonObject } from './common.ts';

/** /api/v1/token/: the session (login in one or two steps, its end, when it expires). */
export { loginBody, mfaLoginBody };

export const sessionExpiresResponse = z.object({ expires: epochSeconds });
export const mfaRequiredResponse = z.object({
  mfa_required: z.literal(true).describe('password right; no session yet: answer POST /api/v1/token/mfa'),
});
export const loginResponse = z.union([sessionExpiresResponse, mfaRequiredResponse]);
export type LoginResponse = z.infer<typeof loginResponse>;

/** WebAuthn's assertion options and answer, checked field by field by `@simplewebauthn/server`. */
export const passkeyOptionsResponse = jsonObject;
export const passkeyLoginBody = z.object({ response: jsonObject });
export type SessionExpires = z.infer<typeof sessionExpiresResponse>;
