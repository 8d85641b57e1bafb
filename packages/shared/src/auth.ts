import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from './constants.ts';
import { FIELD_MESSAGES_KO as M } from './messages.ko.ts';

export const emailSchema = z
  .string({ error: M.required })
  .trim()
  .min(1, M.required)
  .max(254, M.email)
  .pipe(z.email({ error: M.email }));

/** Length is checked before any hashing so an over-long password costs the server nothing. */
export const passwordSchema = z
  .string({ error: M.required })
  .min(PASSWORD_MIN, M.passwordTooShort)
  .max(PASSWORD_MAX, M.passwordTooLong);

export const registerBody = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: z.string({ error: M.nameRequired }).trim().min(1, M.nameRequired).max(100, M.tooLong(100)),
  join_code: z.string().trim().max(64, M.tooLong(64)).optional().nullable(),
});
export type RegisterBody = z.infer<typeof registerBody>;

/** `POST /api/v1/user/join`: a signed-in member without a company joins one with its join code. */
export const joinCompanyBody = z.object({
  join_code: z.string({ error: M.required }).trim().min(1, M.required).max(64, M.tooLong(64)),
});
export type JoinCompanyBody = z.infer<typeof joinCompanyBody>;

export const loginBody = z.object({
  email: emailSchema,
  password: z.string({ error: M.required }).min(1, M.required).max(PASSWORD_MAX, M.passwordTooLong),
  captcha: z.string({ error: M.captchaRequired }).min(1, M.captchaRequired).max(10_000, M.invalid),
});
export type LoginBody = z.infer<typeof loginBody>;

export const emailOnlyBody = z.object({ email: emailSchema });
export const tokenBody = z.object({
  token: z.string({ error: M.invalid }).min(1, M.invalid).max(200, M.invalid),
});
export const resetPasswordBody = z.object({
  token: z.string({ error: M.invalid }).min(1, M.invalid).max(200, M.invalid),
  password: passwordSchema,
});
