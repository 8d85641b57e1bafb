import { z } from 'zod';
import { emailSchema } from './auth.ts';
import { INVITABLE_ROLES, type InvitableRole } from './company-invitations.ts';
import { FIELD_MESSAGES_KO as M } from './messages.ko.ts';

/**
 * A company's own settings (R-CO-2), run by its `admin` at /manager/settings. The limits live here so the
 * page shows the same numbers the API enforces.
 */
export const SETTINGS_LIMITS = {
  /** 근로기준법 제76조의3 ②: the employer must look into a report "without delay"; a week is the default. */
  ackDays: { min: 1, max: 30 },
  /** Feedback to the reporter; three months by default, as in the EU whistle-blowing directive. */
  feedbackDays: { min: 7, max: 180 },
  /** Days a closed case is kept (docs/decisions/0004): three years by default, as 근로기준법 제42조. */
  retentionDays: { min: 30, max: 3650 },
  noticeContact: 300,
  intakeHelpText: 2000,
} as const;

const days = (limits: { min: number; max: number }) =>
  z
    .number({ error: M.invalid })
    .int(M.invalid)
    .min(limits.min, `${limits.min}일 이상이어야 합니다.`)
    .max(limits.max, `${limits.max}일 이하여야 합니다.`);

export const companySettingsPatch = z
  .object({
    ack_deadline_days: days(SETTINGS_LIMITS.ackDays),
    feedback_deadline_days: days(SETTINGS_LIMITS.feedbackDays),
    retention_days: days(SETTINGS_LIMITS.retentionDays),
    notice_contact: z
      .string()
      .trim()
      .max(SETTINGS_LIMITS.noticeContact, M.tooLong(SETTINGS_LIMITS.noticeContact)),
    intake_help_text: z
      .string()
      .trim()
      .max(SETTINGS_LIMITS.intakeHelpText, M.tooLong(SETTINGS_LIMITS.intakeHelpText)),
  })
  .partial()
  .strict();
export type CompanySettingsPatch = z.infer<typeof companySettingsPatch>;

export { INVITABLE_ROLES, type InvitableRole };
/** A role the admin may give a person of the company: a handler role, or back to `member` (removal). */
export const ASSIGNABLE_ROLES = ['member', ...INVITABLE_ROLES] as const;

export const companyInvitationBody = z.object({
  email: emailSchema,
  role: z.enum(INVITABLE_ROLES, { error: M.invalid }),
});
export type CompanyInvitationBody = z.infer<typeof companyInvitationBody>;

export const roleChangeBody = z.object({ role: z.enum(ASSIGNABLE_ROLES, { error: M.invalid }) });

const DOMAIN = /^(?=.{4,253}$)(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}\p{N}-]{2,63}$/u;

export const domainClaimBody = z
  .object({
    domain: z
      .string()
      .trim()
      .toLowerCase()
      .transform((value) => value.replace(/^@/, ''))
      .pipe(z.string().regex(DOMAIN, '메일 도메인을 example.co.kr 형식으로 입력해주세요.')),
    email: emailSchema,
  })
  .refine((body) => body.email.toLowerCase().endsWith(`@${body.domain}`), {
    message: '확인 메일을 받을 주소는 그 도메인의 주소여야 합니다.',
    path: ['email'],
  });
export type DomainClaimBody = z.infer<typeof domainClaimBody>;

export { COMPANY_AUDIT_ACTIONS, type CompanyAuditAction } from './constants.ts';
