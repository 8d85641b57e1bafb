import { emailOnlyBody, type LoginBody, loginBody } from '@ansim/shared/auth';
import { mfaLoginBody } from '@ansim/shared/mfa';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import {
  type RegisterFormValues,
  type ResetPasswordFormValues,
  registerFormSchema,
  resetPasswordFormSchema,
} from './schemas';

/**
 * The auth forms' resolvers, in a module of their own so that zod loads with the first validation, not with
 * the page (lib/lazy-resolver.ts). The schemas are the ones the API validates the same bodies with.
 */
export const loginResolver: Resolver<LoginBody> = zodResolver(loginBody);
export const mfaCodeResolver: Resolver<{ code: string }> = zodResolver(mfaLoginBody) as Resolver<{
  code: string;
}>;
export const emailResolver: Resolver<{ email: string }> = zodResolver(emailOnlyBody);
export const registerResolver: Resolver<RegisterFormValues> = zodResolver(
  registerFormSchema,
) as Resolver<RegisterFormValues>;
export const resetPasswordResolver: Resolver<ResetPasswordFormValues> = zodResolver(
  resetPasswordFormSchema,
) as Resolver<ResetPasswordFormValues>;
