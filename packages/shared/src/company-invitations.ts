import { z } from 'zod';
import { emailSchema, passwordSchema } from './auth.ts';
import { INVITABLE_ROLES, type InvitableRole } from './constants.ts';
import { FIELD_MESSAGES_KO as M } from './messages.ko.ts';

export { INVITABLE_ROLES, type InvitableRole };

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
