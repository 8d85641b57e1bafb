import { z } from 'zod';
import { INVITABLE_ROLES } from '../company-invitations.ts';
import { COMPANY_AUDIT_ACTIONS } from '../company-settings.ts';
import { COMPANY_ROLES } from '../constants.ts';
import { instant, jsonObject } from './common.ts';

/**
 * /api/v1/company/…: the company administrator's settings (R-CO-2). The request bodies live beside their
 * limits in `company-settings.ts`; the answers are declared here.
 */
const range = z.object({ min: z.number().int(), max: z.number().int() });

export const companySettingsSchema = z.object({
  name: z.string(),
  join_code: z.string().nullable(),
  intake_code: z.string(),
  intake_url: z.string(),
  ack_deadline_days: z.number().int(),
  feedback_deadline_days: z.number().int(),
  retention_days: z.number().int(),
  retention_set_by: z.string().nullable(),
  retention_set_at: instant.nullable(),
  notice_contact: z.string(),
  intake_help_text: z.string(),
  /** The bounds the form checks before sending (SETTINGS_LIMITS). */
  limits: z.object({
    ackDays: range,
    feedbackDays: range,
    retentionDays: range,
    noticeContact: z.number().int(),
    intakeHelpText: z.number().int(),
  }),
});
export type CompanySettings = z.infer<typeof companySettingsSchema>;

/** POST /api/v1/company/intake-code/rotate: the new intake link; the old one no longer opens. */
export const intakeCodeRotated = z.object({ intake_code: z.string(), intake_url: z.string() });
export type IntakeCodeRotated = z.infer<typeof intakeCodeRotated>;

export const personSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  role: z.enum(COMPANY_ROLES),
  has_mfa: z.boolean(),
  joined_at: instant,
});
export type Person = z.infer<typeof personSchema>;
export const peopleResponse = z.object({ results: z.array(personSchema) });

export const pendingCompanyInvitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role: z.enum(INVITABLE_ROLES),
  invited_by: z.string().nullable(),
  created_at: instant,
  expires_at: instant,
});
export const pendingCompanyInvitationsResponse = z.object({
  results: z.array(pendingCompanyInvitationSchema),
});

export const domainsResponse = z.object({
  domains: z.array(z.object({ domain: z.string(), added_at: instant })),
  pending: z.array(z.object({ id: z.uuid(), domain: z.string(), email: z.string(), expires_at: instant })),
});

export const companyAuditEntrySchema = z.object({
  id: z.uuid(),
  at: instant,
  action: z.enum(COMPANY_AUDIT_ACTIONS),
  actor: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  /** The person a role change concerned, by name. */
  target_name: z.string().nullable(),
  /** What changed (old and new values of a setting, the role given); no case content. */
  detail: jsonObject.nullable(),
});
export const companyAuditResponse = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(companyAuditEntrySchema),
});
export type PendingCompanyInvitation = z.infer<typeof pendingCompanyInvitationSchema>;
export type Domains = z.infer<typeof domainsResponse>;
export type CompanyAuditEntry = z.infer<typeof companyAuditEntrySchema>;
export type CompanyAuditPage = z.infer<typeof companyAuditResponse>;
