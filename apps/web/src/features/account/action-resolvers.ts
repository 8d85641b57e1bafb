import { joinCompanyBody } from '@ansim/shared/auth';
import { currentPasswordSchema, passwordOnlyBody, totpConfirmBody, totpDeleteBody } from '@ansim/shared/mfa';
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import { z } from 'zod';

/**
 * The account page's form resolvers, in a module of their own so that zod loads with the first validation,
 * not with the page (lib/lazy-resolver.ts). The schemas are the ones the API checks the same bodies with.
 */
const resolve = <T extends FieldValues>(schema: z.ZodType<T>) =>
  zodResolver(schema as never) as unknown as Resolver<T, unknown, T>;

const passkeyForm = z.object({ name: z.string().trim().min(1).max(60), password: currentPasswordSchema });

export const totpConfirmResolver = resolve(totpConfirmBody);
export const totpDeleteResolver = resolve(totpDeleteBody);
export const passwordOnlyResolver = resolve(passwordOnlyBody);
export const passkeyResolver = resolve(passkeyForm);
export const joinCompanyResolver = resolve(joinCompanyBody);
