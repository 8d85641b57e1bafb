import { z } from 'zod';
import { emailSchema, passwordSchema } from './auth.ts';
import { FIELD_MESSAGES_KO as M } from './messages.ko.ts';

/** The roles a company invitation can grant: the people who handle cases or run the company. */
export const INVITABLE_ROLES = ['investigator', 'manager', 'admin'] as const;
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

/** What `/join/{token}` shows before the invitee accepts. */
export interface CompanyInvitationView {
  company_name: string;
  email: string;
  role: InvitableRole;
  /** A confirmed account holds the address: the invitee logs in as it and accepts; else they set a password. */
  has_account: boolean;
}

/** A new invitee names themselves and sets a password; an existing account sends nothing (it is logged in). */
export const acceptCompanyInvitationBody = z.object({
  name: z.string({ error: M.nameRequired }).trim().min(1, M.nameRequired).max(100, M.tooLong(100)).optional(),
  password: passwordSchema.optional(),
});
export type AcceptCompanyInvitationBody = z.infer<typeof acceptCompanyInvitationBody>;

export const inviteEmailSchema = emailSchema;
