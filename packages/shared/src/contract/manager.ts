import { z } from 'zod';
import { CASE_FIELD_MESSAGES_KO } from '../case-messages.ko.ts';
import {
  HANDLER_ROLES,
  isReopening,
  needsOutcome,
  REPORT_STATUSES,
  REPORTER_TYPES,
  type ReportStatus,
} from '../constants.ts';
import { CASE_ACTIONS, CASE_FINDINGS } from '../outcomes.ts';
import { PROTECTION_OPTIONS, type ReportForm } from '../report-form.ts';
import { instant, jsonObject, pageOf } from './common.ts';
import { FILE_METADATA_STATES } from './file.ts';
import { invitationKindSchema } from './invitation.ts';
import {
  measureDecisionSchema,
  protectionMeasureSchema,
  reportStatusSchema,
  reportSummarySchema,
  storedReportForm,
} from './report.ts';

/**
 * /api/v1/manager/…: the case as its company's handlers see it. The API builds these field by field in
 * apps/api/src/domain/manager, where the anonymity rules live; serialisation drops anything not declared here.
 */

const note = z.string().trim().max(5000, '5000자 이하로 입력해주세요.');

// ── request bodies ─────────────────────────────────────────────────────────────────────────────────────────

/** The recorded outcome of an investigation (근로기준법 제76조의3 ⑤). */
export const outcomeBody = z.object({
  finding: z.enum(CASE_FINDINGS, { error: CASE_FIELD_MESSAGES_KO.findingRequired }),
  actions: z
    .array(z.enum(CASE_ACTIONS, { error: '올바르지 않은 조치입니다.' }), { error: '조치를 골라주세요.' })
    .min(1, CASE_FIELD_MESSAGES_KO.actionsRequired)
    .max(CASE_ACTIONS.length)
    .refine((actions) => new Set(actions).size === actions.length, '같은 조치를 두 번 고를 수 없습니다.')
    .refine(
      (actions) => !actions.includes('none') || actions.length === 1,
      '"조치 없음"은 다른 조치와 함께 고를 수 없습니다.',
    ),
  summary: note.default(''),
});
export type OutcomeBody = z.input<typeof outcomeBody>;

/**
 * A note to the reporter marked as feedback meets the feedback deadline (decision 0002); it needs a note, since
 * the reporter must be told something. So does a recorded outcome. Any status change or note meets the
 * acknowledgement deadline.
 */
export const statusChangeBody = z
  .object({
    status: z.enum(REPORT_STATUSES, {
      error: (issue) =>
        issue.input === undefined ? CASE_FIELD_MESSAGES_KO.statusRequired : '올바르지 않은 상태입니다.',
    }),
    note_for_reporter: note.default(''),
    internal_note: note.default(''),
    is_feedback: z.boolean().default(false),
    outcome: outcomeBody.optional(),
  })
  .refine((value) => !value.is_feedback || value.note_for_reporter.length > 0, {
    path: ['note_for_reporter'],
    message: CASE_FIELD_MESSAGES_KO.feedbackNeedsNote,
  });
export type StatusChangeBody = z.input<typeof statusChangeBody>;

/**
 * A status change judged against the case's current status `from`: reopening an ended case needs a written
 * reason; the end of an investigation needs its outcome (76-3 ⑤), and no other step takes one. The API applies
 * it once it has read the case (domain/manager/case-actions.ts); the manager's dialog, which shows that status,
 * validates with the same schema, so the two cannot disagree on what a step needs.
 */
export const statusChangeBodyFrom = (from: ReportStatus) =>
  statusChangeBody.superRefine((value, context) => {
    if (isReopening(from, value.status) && !value.internal_note) {
      context.addIssue({
        code: 'custom',
        path: ['internal_note'],
        message: CASE_FIELD_MESSAGES_KO.reopenReasonRequired,
      });
    }
    if (needsOutcome(from, value.status) && !value.outcome) {
      context.addIssue({
        code: 'custom',
        path: ['outcome'],
        message: CASE_FIELD_MESSAGES_KO.outcomeRequired,
      });
    }
    if (value.outcome && value.status !== 'action_taken' && value.status !== 'closed') {
      context.addIssue({ code: 'custom', path: ['outcome'], message: CASE_FIELD_MESSAGES_KO.outcomeNotHere });
    }
  });

export const measureCreateBody = z.object({
  measure: z.enum(PROTECTION_OPTIONS, { error: '올바르지 않은 보호조치입니다.' }),
  detail: note.default(''),
});
export type MeasureCreateBody = z.input<typeof measureCreateBody>;

export const measureUpdateBody = z
  .object({
    decision: measureDecisionSchema.optional(),
    /** Required when the decision is `refused` (art. 76-3: the refusal needs its reason). */
    reason: note.optional(),
    reporter_consent: z.boolean().nullable().optional(),
  })
  .refine((value) => value.decision !== 'refused' || (value.reason ?? '').length > 0, {
    path: ['reason'],
    message: CASE_FIELD_MESSAGES_KO.refuseReasonRequired,
  })
  // An update that changes nothing is a client mistake, not an empty UPDATE for the database to refuse.
  .refine(
    (value) =>
      value.decision !== undefined || value.reason !== undefined || value.reporter_consent !== undefined,
    { path: ['decision'], message: '바꿀 내용(결정, 사유 또는 신고인 동의)을 보내주세요.' },
  );
export type MeasureUpdateBody = z.input<typeof measureUpdateBody>;

/** What is on record of a measure that the rule below reads. */
export interface RecordedMeasure {
  reporter_consent: boolean | null;
  reason: string;
}

/**
 * A measure must not go against the victim's will (76-3 ④): carried out although the reporter objected, its
 * reason is on record first, the one sent with the decision or else one recorded before. A sent reason replaces
 * the recorded one, so an empty one does not count.
 */
export const grantLacksReason = (
  recorded: RecordedMeasure,
  value: Pick<MeasureUpdateBody, 'decision' | 'reason' | 'reporter_consent'>,
): boolean =>
  value.decision === 'granted' &&
  (value.reporter_consent ?? recorded.reporter_consent) === false &&
  !(value.reason ?? recorded.reason).trim();

/**
 * A measure update judged against the measure on record: the manager's reason dialog validates with it; the
 * API applies the same rule (`grantLacksReason`) once it has read the measure, answering 422 MEASURE_OBJECTED.
 */
export const measureUpdateBodyFor = (recorded: RecordedMeasure) =>
  measureUpdateBody.superRefine((value, context) => {
    if (grantLacksReason(recorded, value)) {
      context.addIssue({
        code: 'custom',
        path: ['reason'],
        message: CASE_FIELD_MESSAGES_KO.grantReasonRequired,
      });
    }
  });

export const assigneesBody = z.object({
  user_ids: z.array(z.uuid('올바르지 않은 사용자입니다.')).max(50, '최대 50명까지 지정할 수 있습니다.'),
});
export const exclusionBody = z.object({ user_id: z.uuid('올바르지 않은 사용자입니다.') });

export const INVITATION_DAYS_DEFAULT = 14;

export const invitationTargetSchema = z.union([
  z.object({
    kind: z.literal('defendant'),
    email: z.email({ error: '올바른 이메일 주소를 입력해주세요.' }).optional(),
  }),
  z.object({ kind: z.literal('reference'), witness_index: z.number().int().min(0).max(100) }),
  z.object({
    kind: z.literal('reference'),
    name: z.string().trim().min(1, '이름을 입력해주세요.').max(200),
    email: z.email({ error: '올바른 이메일 주소를 입력해주세요.' }),
  }),
]);
export type InvitationTarget = z.infer<typeof invitationTargetSchema>;

export const sendInvitationsBody = z.object({
  invitations: z.array(invitationTargetSchema).min(1).max(20),
  /** Whether the accused person may see the evidence files of the report (the manager's choice). */
  share_evidence: z.boolean().default(false),
  expires_in_days: z.number().int().min(1).max(60).default(INVITATION_DAYS_DEFAULT),
});
export type SendInvitationsBody = z.input<typeof sendInvitationsBody>;

// ── responses ──────────────────────────────────────────────────────────────────────────────────────────────

export const managerListRowSchema = z.object({
  id: z.uuid(),
  case_number: z.string(),
  report_type: z.enum(REPORTER_TYPES),
  status: reportStatusSchema,
  accused_name: z.string(),
  created_at: instant,
  updated_at: instant,
  ack_due_at: instant,
  feedback_due_at: instant,
  is_ack_overdue: z.boolean(),
  is_feedback_overdue: z.boolean(),
  /** The case is assigned to the handler reading the list. */
  is_assigned_to_me: z.boolean(),
});
export type ManagerListRow = z.infer<typeof managerListRowSchema>;
export const managerPageSchema = pageOf(managerListRowSchema).extend({
  /** false when `count` is the planner's estimate; `?count=exact` asks for the exact figure. */
  count_exact: z.boolean(),
});
export type ManagerPage = z.infer<typeof managerPageSchema>;
/** The manager list: `count` is the planner's estimate for a long list unless `count_exact`. */
export type ManagerListPage = ManagerPage;

export const caseFileSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  size: z.number().int(),
  content_type: z.string(),
  /** Null for an anonymous case: a digest would join its evidence to an account's upload. */
  sha256: z.string().nullable(),
  /** What metadata removal achieved: an `unremovable` file is never shared with the accused person. */
  metadata: z.enum(FILE_METADATA_STATES),
  /** The message the file came with, or null for the report's own evidence. */
  message_id: z.uuid().nullable(),
});
export type CaseFile = z.infer<typeof caseFileSchema>;

export const caseHistoryEntrySchema = z.object({
  from_status: reportStatusSchema.nullable(),
  to_status: reportStatusSchema,
  note_for_reporter: z.string(),
  internal_note: z.string(),
  actor_name: z.string().nullable(),
  created_at: instant,
  /** The note told the reporter the result: it met the feedback deadline. */
  is_feedback: z.boolean(),
});
export type CaseHistoryEntry = z.infer<typeof caseHistoryEntrySchema>;

export const managerMessageSchema = z.object({
  id: z.uuid(),
  author_kind: z.enum(['reporter', 'manager']),
  author_name: z.string(),
  body: z.string(),
  created_at: instant,
  is_feedback: z.boolean(),
  files: z.array(caseFileSchema),
});
export type ManagerMessage = z.infer<typeof managerMessageSchema>;
export const managerMessagesResponse = z.array(managerMessageSchema);

export const caseMeasureSchema = z.object({
  id: z.uuid(),
  measure: protectionMeasureSchema,
  detail: z.string(),
  requested_by_reporter: z.boolean(),
  reporter_consent: z.boolean().nullable(),
  /** The reporter's own words on the measure and when they gave them (76-3 ④). */
  reporter_opinion: z.string(),
  reporter_opinion_at: instant.nullable(),
  decision: measureDecisionSchema,
  reason: z.string(),
  decided_at: instant.nullable(),
});
export type CaseMeasure = z.infer<typeof caseMeasureSchema>;
export const caseMeasuresResponse = z.array(caseMeasureSchema);
export const measureCreatedResponse = z.object({ id: z.uuid() });

export const caseOutcomeSchema = z.object({
  finding: z.enum(CASE_FINDINGS),
  actions: z.array(z.enum(CASE_ACTIONS)),
  summary: z.string(),
  recorded_at: instant,
  recorded_by: z.string().nullable(),
});
export type CaseOutcome = z.infer<typeof caseOutcomeSchema>;

export const caseAuditRowSchema = z.object({
  action: z.string(),
  actor_id: z.uuid().nullable(),
  actor_name: z.string().nullable(),
  at: instant,
  /** The last of repeated reads folded into this row (null for a single event). */
  last_at: instant.nullable(),
  repeat_count: z.number().int(),
});
export type CaseAuditRow = z.infer<typeof caseAuditRowSchema>;
export const caseAuditResponse = z.array(caseAuditRowSchema);

export const caseInvitationSchema = z.object({
  id: z.uuid(),
  kind: invitationKindSchema,
  name: z.string(),
  email: z.string(),
  witness_index: z.number().int().nullable(),
  share_evidence: z.boolean(),
  expires_at: instant,
  sent_at: instant.nullable(),
  opened_at: instant.nullable(),
  acknowledged_at: instant.nullable(),
  responded_at: instant.nullable(),
  revoked_at: instant.nullable(),
  is_expired: z.boolean(),
});
export type CaseInvitation = z.infer<typeof caseInvitationSchema>;
export const caseInvitationsResponse = z.array(caseInvitationSchema);

export const caseStatementSchema = z.object({
  id: z.uuid(),
  invitation_id: z.uuid(),
  kind: invitationKindSchema,
  name: z.string(),
  /** The statement's fields of the report form, which differ by kind (accused person or witness). */
  form: jsonObject.describe('the statement fields of the report form') as unknown as z.ZodType<
    Partial<ReportForm>
  >,
  sha256: z.string(),
  created_at: instant,
});
export type CaseStatement = z.infer<typeof caseStatementSchema>;

export const caseHandlerSchema = z.object({ id: z.uuid(), name: z.string(), role: z.enum(HANDLER_ROLES) });
export type CaseHandler = z.infer<typeof caseHandlerSchema>;
export const caseHandlersResponse = z.array(caseHandlerSchema);

export const caseExclusionSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  role: z.string(),
  /** Why: the accused person's name or address matched this handler, or a manager excluded them by hand. */
  reason: z.enum(['accused_name', 'accused_email', 'manual']),
  created_at: instant,
});
export type CaseExclusion = z.infer<typeof caseExclusionSchema>;
export const caseExclusionsResponse = z.array(caseExclusionSchema);

export const managerCaseSchema = reportSummarySchema.extend({
  ack_due_at: instant,
  feedback_due_at: instant,
  acknowledged_at: instant.nullable(),
  feedback_at: instant.nullable(),
  closed_at: instant.nullable(),
  is_ack_overdue: z.boolean(),
  is_feedback_overdue: z.boolean(),
  allowed_transitions: z.array(reportStatusSchema),
  /** Null for an anonymous report: the company never learns who filed it. */
  reporter: z.object({ name: z.string(), email: z.string() }).nullable(),
  form: storedReportForm,
  files: z.array(caseFileSchema),
  history: z.array(caseHistoryEntrySchema),
  messages: z.array(managerMessageSchema),
  measures: z.array(caseMeasureSchema),
  /** The recorded outcome of the investigation (76-3 ⑤), or null before one is recorded. */
  outcome: caseOutcomeSchema.nullable(),
  /** Whether the reporter sees the outcome's summary, not only the finding (the company's setting). */
  share_outcome_summary: z.boolean(),
  is_closed: z.boolean(),
  audit: z.array(caseAuditRowSchema),
  invitations: z.array(caseInvitationSchema),
  statements: z.array(caseStatementSchema),
  /** Who handles the case. */
  assignees: z.array(caseHandlerSchema),
  /** Whether this handler assigns and excludes (a manager or admin); an investigator only sees the assignees. */
  can_assign: z.boolean(),
  /** The company's handlers who may be assigned (not excluded); empty for an investigator. */
  assignable_handlers: z.array(caseHandlerSchema),
  /** Who is kept away from the case and why; empty for an investigator. */
  exclusions: z.array(caseExclusionSchema),
});
export type ManagerCase = z.infer<typeof managerCaseSchema>;

export type { ReportStats } from '../stats.ts';
export type { Page } from './common.ts';
export type { MeasureDecision } from './report.ts';
// Names the web's manager pages use for the same types.
export type { ManagerMessage as CaseMessage };
export type MeasureCreated = z.infer<typeof measureCreatedResponse>;
