import { createCompanyBody } from '@ansim/shared/operator';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';
import { splitDomains } from './split-domains';

// Loaded with the first validation, not with the page, and zod with it (lib/lazy-resolver.ts).

/** Domains are typed on one line, separated by commas or spaces; the shared schema checks each. */
const formSchema = z.object({
  name: createCompanyBody.shape.name,
  domains: z.string().superRefine((value, ctx) => {
    const parsed = createCompanyBody.shape.domains.safeParse(splitDomains(value));
    if (!parsed.success) ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? '' });
  }),
  admin_email: createCompanyBody.shape.admin_email,
});
export type CreateCompanyFormValues = z.input<typeof formSchema>;

export const createCompanyResolver = zodResolver(formSchema) as Resolver<CreateCompanyFormValues>;
