import { z } from 'zod';
import { instant, jsonObject } from './common.ts';

/**
 * /api/v1/operator/…: the platform operator's console (R-CO-4). The request body lives beside its limits in
 * `operator.ts`; the answers are declared here. Nothing in them is case content, and `z.object` drops any
 * field a domain function might add.
 */
const count = z.number().int();

export const operatorCompanySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  domains: z.array(z.string()),
  join_code: z.string().nullable(),
  /** People per company role; never who they are. */
  users: z.object({ member: count, investigator: count, manager: count, admin: count }),
  /** Case counts only: the operator never sees a case. */
  cases: z.object({ total: count, open: count }),
  suspended_at: instant.nullable(),
  created_at: instant,
});
export type OperatorCompany = z.infer<typeof operatorCompanySchema>;

export const createdCompanySchema = z.object({ id: z.uuid(), join_code: z.string() });
export const suspensionSchema = z.object({ id: z.uuid(), suspended_at: instant.nullable() });

export const platformHealthSchema = z.object({
  outbox: z.object({ pending: count, oldest_pending_seconds: count.nullable(), failed: count }),
  storage: z.object({ bytes: z.number(), files: count }),
});
export type PlatformHealth = z.infer<typeof platformHealthSchema>;

/** What an operator does that the platform keeps a record of; each row also lands in that company's own log. */
export const OPERATOR_AUDIT_ACTIONS = [
  'company.create',
  'company.suspend',
  'company.resume',
  /** A mail domain claimed (requested, verified, refused), added by the CLI, or removed. */
  'company.domain',
] as const;
export type OperatorAuditAction = (typeof OPERATOR_AUDIT_ACTIONS)[number];

export const operatorAuditQuery = z.object({
  action: z.enum(OPERATOR_AUDIT_ACTIONS).optional(),
  company_id: z.uuid().optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type OperatorAuditQuery = z.input<typeof operatorAuditQuery>;

export const operatorAuditEntrySchema = z.object({
  id: z.uuid(),
  at: instant,
  action: z.enum(OPERATOR_AUDIT_ACTIONS),
  /** Null when no logged-in person did it. */
  actor: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  company: z.object({ id: z.uuid(), name: z.string() }),
  /** A new company's name and domains; nothing for a suspension or resumption. */
  detail: jsonObject.nullable(),
});
export type OperatorAuditEntry = z.infer<typeof operatorAuditEntrySchema>;

export const operatorAuditResponse = z.object({
  count,
  page: count,
  page_size: count,
  results: z.array(operatorAuditEntrySchema),
});
export type OperatorAuditPage = z.infer<typeof operatorAuditResponse>;
