import { passwordSchema } from '@ansim/shared/auth';
import { FIELD_MESSAGES_KO } from '@ansim/shared/messages.ko';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';

// Loaded with the first validation, not with the page, and zod with it (lib/lazy-resolver.ts).
const newAccountSchema = z
  .object({
    name: z.string().trim().min(1, FIELD_MESSAGES_KO.nameRequired).max(100, FIELD_MESSAGES_KO.tooLong(100)),
    password: z.string().min(1, FIELD_MESSAGES_KO.required).pipe(passwordSchema),
    password_confirm: z.string().min(1, FIELD_MESSAGES_KO.required),
  })
  .refine((value) => value.password === value.password_confirm, {
    path: ['password_confirm'],
    message: FIELD_MESSAGES_KO.passwordMismatch,
  });
export type NewAccountValues = z.input<typeof newAccountSchema>;

export const newAccountResolver = zodResolver(newAccountSchema) as Resolver<NewAccountValues>;
