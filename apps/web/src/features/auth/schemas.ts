import { passwordSchema, registerBody } from '@ansim/shared/auth';
import { FIELD_MESSAGES_KO } from '@ansim/shared/messages.ko';
import { z } from 'zod';

/** Client-only: the confirmation field never leaves the browser. */
export const registerFormSchema = registerBody
  .extend({ password_confirm: z.string() })
  .refine((value) => value.password === value.password_confirm, {
    path: ['password_confirm'],
    message: FIELD_MESSAGES_KO.passwordMismatch,
  });
export type RegisterFormValues = z.input<typeof registerFormSchema>;

export const resetPasswordFormSchema = z
  .object({ password: passwordSchema, password_confirm: z.string() })
  .refine((value) => value.password === value.password_confirm, {
    path: ['password_confirm'],
    message: FIELD_MESSAGES_KO.passwordMismatch,
  });
export type ResetPasswordFormValues = z.input<typeof resetPasswordFormSchema>;
