import { z } from 'zod';
import { instant } from './common.ts';

/** /api/v1/invitation/…: what an invitee's page asks with no account; the link's token is the credential. */
export const invitationKindSchema = z.enum(['defendant', 'reference']);
export type InvitationKind = z.infer<typeof invitationKindSchema>;

export const invitationParams = z.object({ token: z.string().max(100) });

/** Evidence shared with the accused, under a generic name (an uploaded name could tell who reported). */
export const sharedEvidenceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  content_type: z.string(),
  size: z.number().int(),
});
export type SharedEvidence = z.infer<typeof sharedEvidenceSchema>;

export const invitationViewSchema = z.object({
  kind: invitationKindSchema,
  invitee_name: z.string(),
  company_name: z.string(),
  case_number: z.string(),
  expires_at: instant,
  acknowledged_at: instant.nullable(),
  responded_at: instant.nullable(),
  accused_name: z.string(),
  /** What happened, as alleged: dates, places and descriptions only — never who reported it. */
  acts: z.array(
    z.object({
      date: z.string(),
      location: z.string(),
      description: z.string(),
      evidences: z.array(sharedEvidenceSchema),
    }),
  ),
});
export type InvitationView = z.infer<typeof invitationViewSchema>;

export const acknowledgeResponse = z.object({ acknowledged_at: instant });
export type AcknowledgeResponse = z.infer<typeof acknowledgeResponse>;
