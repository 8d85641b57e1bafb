import { z } from 'zod';
import { PASSWORD_MAX } from './constants.ts';
import { FIELD_MESSAGES_KO as M } from './messages.ko.ts';

/** The current password, asked again before any change to the account's second factors. */
export const currentPasswordSchema = z
  .string({ error: M.required })
  .min(1, M.required)
  .max(PASSWORD_MAX, M.passwordTooLong);

/** A 6-digit TOTP code or a recovery code (letters, digits and hyphens; spaces are forgiven). */
export const mfaCodeSchema = z
  .string({ error: M.mfaCode })
  .trim()
  .min(6, M.mfaCode)
  .max(40, M.mfaCode)
  .regex(/^[0-9A-Za-z -]+$/, M.mfaCode);

export const totpCodeSchema = z
  .string({ error: M.mfaCode })
  .trim()
  .regex(/^\d{6}$/, '인증 앱에 표시된 6자리 숫자를 입력해주세요.');

export const mfaLoginBody = z.object({ code: mfaCodeSchema });
export const totpConfirmBody = z.object({ code: totpCodeSchema, password: currentPasswordSchema });
/** Removing TOTP takes a current code, or a recovery code when the phone is lost. */
export const totpDeleteBody = z.object({ code: mfaCodeSchema, password: currentPasswordSchema });
export const passwordOnlyBody = z.object({ password: currentPasswordSchema });
