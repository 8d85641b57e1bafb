import { z } from 'zod';
import { emailSchema } from './auth.ts';
import { FIELD_MESSAGES_KO as M } from './messages.ko.ts';
import { isPublicMailDomain, PUBLIC_MAIL_DOMAIN_MESSAGE_KO } from './public-mail-domains.ts';

const DOMAIN = /^(?=.{4,253}$)(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}\p{N}-]{2,63}$/u;
const DOMAIN_MESSAGE = '메일 도메인 형식이 아닙니다 (예: example.co.kr).';

export const companyDomainSchema = z
  .string({ error: M.required })
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/^@/, ''))
  .pipe(z.string().regex(DOMAIN, DOMAIN_MESSAGE))
  .refine((domain) => !isPublicMailDomain(domain), PUBLIC_MAIL_DOMAIN_MESSAGE_KO);

/** The operator's new company: its name, the mail domains that count as its employees, its first admin. */
export const createCompanyBody = z.object({
  name: z.string({ error: M.required }).trim().min(1, '회사 이름을 입력해주세요.').max(200, M.tooLong(200)),
  domains: z.array(companyDomainSchema).max(20, M.tooMany(20)).default([]),
  admin_email: emailSchema,
});
export type CreateCompanyBody = z.input<typeof createCompanyBody>;
