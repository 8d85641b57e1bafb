import { z } from 'zod';
import { emailOnlyBody, registerBody, resetPasswordBody, tokenBody } from '../auth.ts';
import { USER_ROLES } from '../constants.ts';
import { passwordOnlyBody, totpConfirmBody, totpDeleteBody } from '../mfa.ts';
import { detailResponse, instant, jsonObject } from './common.ts';

/** /api/v1/user/…: the account, its e-mail and password, and its second factors. */
export {
  emailOnlyBody,
  passwordOnlyBody,
  registerBody,
  resetPasswordBody,
  tokenBody,
  totpConfirmBody,
  totpDeleteBody,
};

/** 201/202 of registration, confirmation re-send and reset mail: the same words whether the address exists. */
export const acceptedResponse = detailResponse;
export const confirmEmailResponse = z.object({ email: z.string() });

export const mfaStatusSchema = z.object({
  totp: z.boolean(),
  passkeys: z.number().int(),
  recovery_codes_left: z.number().int(),
  required: z
    .boolean()
    .describe('a manager: manager routes answer 403 MFA_ENROLLMENT_REQUIRED until enrolled'),
});
export type MfaStatus = z.infer<typeof mfaStatusSchema>;

export const currentUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: z.enum(USER_ROLES),
  company: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  mfa: mfaStatusSchema,
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** Receipts of anonymous reports filed before they became unlinkable, shown once (decision 0005). */
export const pendingReceiptSchema = z.object({
  case_number: z.string(),
  receipt: z.string(),
  created_at: instant,
});
export type PendingReceipt = z.infer<typeof pendingReceiptSchema>;
export const pendingReceiptsResponse = z.array(pendingReceiptSchema);

export const recoveryCodesResponse = z.object({ recovery_codes: z.array(z.string()) });
export const totpStartResponse = z.object({
  secret: z.string().describe('base32, for typing into an authenticator app'),
  otpauth_uri: z.string(),
  qr_data_url: z.string().describe('the otpauth URI as a QR code: data:image/svg+xml;base64,…'),
});
export type TotpStart = z.infer<typeof totpStartResponse>;

export const passkeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  created_at: instant,
  last_used_at: instant.nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;
export const passkeyListResponse = z.array(passkeySchema);

/** What `@simplewebauthn/browser` sends and receives; checked field by field by `@simplewebauthn/server`. */
export const webauthnJson = jsonObject;
export const passkeyRegisterBody = z.object({
  password: passwordOnlyBody.shape.password,
  name: z.string().trim().min(1).max(60).default('패스키'),
  response: webauthnJson,
});
export const passkeyRegisteredResponse = z.object({
  passkey: passkeySchema,
  recovery_codes: z.array(z.string()).nullable().describe('set when it is the first factor (shown once)'),
});
export type PasskeyRegistered = z.infer<typeof passkeyRegisteredResponse>;
export type RecoveryCodes = z.infer<typeof recoveryCodesResponse>;
/** Confirming or removing TOTP: a code and the current password. */
export type TotpCodeBody = z.input<typeof totpConfirmBody>;
export type PasswordOnlyBody = z.input<typeof passwordOnlyBody>;
export type ConfirmedEmail = z.infer<typeof confirmEmailResponse>;
export type TokenBody = z.input<typeof tokenBody>;
