import { z } from 'zod';
import { REPORT_STATUSES, REPORTER_TYPES } from '../constants.ts';
import { CASE_FINDINGS } from '../outcomes.ts';
import { PROTECTION_OPTIONS, type ReportForm, reportSubmissionBodySchema } from '../report-form.ts';
import { instant, jsonObject, pageOf, pageQuery } from './common.ts';
import { fileViewSchema } from './file.ts';

/** /api/v1/report/…: what a reporter files and then sees of their own report. */
export { pageQuery, reportSubmissionBodySchema };

export const submitReportHeaders = z.object({
  'idempotency-key': z.string().trim().min(1).max(200).optional(),
});

export const submitReportResponse = z.object({
  id: z.uuid(),
  receipt: z
    .string()
    .optional()
    .describe('anonymous report: the 16-digit receipt, shown once; statement: its SHA-256'),
});
export type SubmittedReport = z.infer<typeof submitReportResponse>;

/**
 * A report form as the server stored it: checked against `reportFormSchema` when it was written, sent back
 * whole. Typed as the form; documented as a JSON object, since re-checking it on the way out would turn an old
 * draft's out-of-bounds field into a 500.
 */
export const storedReportForm = jsonObject.describe(
  'the report form (packages/shared/src/report-form.ts)',
) as unknown as z.ZodType<ReportForm>;

export const reportStatusSchema = z.enum(REPORT_STATUSES);
export const measureDecisionSchema = z.enum(['pending', 'granted', 'refused']);
export type MeasureDecision = z.infer<typeof measureDecisionSchema>;
export const protectionMeasureSchema = z.enum(PROTECTION_OPTIONS);

export const reportSummarySchema = z.object({
  id: z.uuid(),
  case_number: z.string(),
  report_type: z.enum(REPORTER_TYPES),
  status: reportStatusSchema,
  created_at: instant,
  updated_at: instant,
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;
export const reportPageSchema = pageOf(reportSummarySchema);
export type ReportPage = z.infer<typeof reportPageSchema>;

/** A protective measure as the reporter sees it, with their own say on it (art. 76-3 ④). */
export const reporterMeasureSchema = z.object({
  id: z.uuid(),
  measure: protectionMeasureSchema,
  detail: z.string(),
  decision: measureDecisionSchema,
  reason: z.string(),
  decided_at: instant.nullable(),
  /** Null until the reporter agrees or objects. */
  reporter_consent: z.boolean().nullable(),
  reporter_opinion: z.string(),
  reporter_opinion_at: instant.nullable(),
});
export const reporterMeasuresResponse = z.array(reporterMeasureSchema);

export const reporterReportDetailSchema = reportSummarySchema.extend({
  form: storedReportForm,
  files: z.array(fileViewSchema),
  /** Status changes with the notes meant for the reporter; internal notes never leave the manager side. */
  history: z.array(
    z.object({
      from_status: reportStatusSchema.nullable(),
      to_status: reportStatusSchema,
      note_for_reporter: z.string(),
      created_at: instant,
    }),
  ),
  /** Whether statements were collected — never their contents, nor who gave them. */
  statements: z.object({
    defendant: z.enum(['not_requested', 'requested', 'responded']),
    references_requested: z.number().int(),
    references_responded: z.number().int(),
  }),
  measures: z.array(reporterMeasureSchema),
  /** The finding of the investigation; its summary only where the company shares it. */
  outcome: z
    .object({
      finding: z.enum(CASE_FINDINGS),
      finding_label: z.string(),
      summary: z.string().nullable(),
      recorded_at: instant,
    })
    .nullable(),
  is_closed: z.boolean(),
});
export type ReporterReportDetail = z.infer<typeof reporterReportDetailSchema>;

/** Files one message may carry. */
export const MESSAGE_FILES_MAX = 10;

const note = z.string().trim().max(5000, '5000자 이하로 입력해주세요.');

export const messageBody = z.object({
  body: z
    .string({ error: '메시지를 입력해주세요.' })
    .trim()
    .min(1, '메시지를 입력해주세요.')
    .max(5000, '5000자 이하로 입력해주세요.'),
  /** The message tells the reporter the result of the handling: it meets the feedback deadline. */
  is_feedback: z.boolean().optional(),
  files: z
    .array(z.uuid({ error: '올바르지 않은 파일입니다.' }))
    .max(MESSAGE_FILES_MAX, `파일은 한 메시지에 ${MESSAGE_FILES_MAX}개까지 보낼 수 있습니다.`)
    .refine((ids) => new Set(ids).size === ids.length, '같은 파일을 두 번 보낼 수 없습니다.')
    .default([]),
});
export type MessageBody = z.input<typeof messageBody>;

/** The reporter's consent to a protective measure, and what they think of it. */
export const measureOpinionBody = z.object({
  consent: z.boolean({ error: '동의 또는 반대를 골라주세요.' }),
  opinion: note.default(''),
});
export type MeasureOpinionBody = z.input<typeof measureOpinionBody>;

/** A file sent with a message, under the name the case shows (generic in an anonymous case). */
export const messageFileSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  size: z.number().int(),
  content_type: z.string(),
});

/** One message of a case's conversation; the reporter sees their own as 나 and every manager as 담당자. */
export const caseMessageSchema = z.object({
  id: z.uuid(),
  author_kind: z.enum(['reporter', 'manager']),
  author_name: z.string(),
  body: z.string(),
  created_at: instant,
  files: z.array(messageFileSchema),
});
export type CaseMessage = z.infer<typeof caseMessageSchema>;
export const messageThreadResponse = z.array(caseMessageSchema);
/** An invitee's statement always answers with its receipt: the SHA-256 of the statement as stored. */
export type StatementReceipt = Required<SubmittedReport>;
