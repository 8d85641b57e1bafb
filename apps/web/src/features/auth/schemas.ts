import { passwordSchema, registerBody } from '@ansim/shared/auth';
import { FIELD_MESSAGES_KO } from '@ansim/shared/messages.ko';
import { z } from 'zod';

/**
 * Client-only: the confirmation field never leaves the browser. An empty field says "필수 입력 항목입니다." like
 * every other required field, rather than a rule about its contents ("8자 이상", "이름을 입력해주세요").
 */
const requiredString = () => z.string().min(1, FIELD_MESSAGES_KO.required);
export const registerFormSchema = registerBody
  .extend({
    name: z.string().trim().min(1, FIELD_MESSAGES_KO.required).pipe(registerBody.shape.name),
    password: requiredString().pipe(passwordSchema),
    password_confirm: requiredString(),
  })
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
