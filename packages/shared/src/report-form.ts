import { z } from 'zod';
import { REPORT_TYPES, REPORTER_TYPES } from './constants.ts';
import { FIELD_MESSAGES_KO as M } from './messages.ko.ts';
import {
  DEFENDANT_TRUTH_OPTIONS,
  HARM_TYPES,
  PROTECTION_OPTIONS,
  REPORT_LIMITS,
  REPORTER_KINDS,
  WISH_OPTIONS,
} from './report-form-options.ts';
import {
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  submissionIssues,
  TIMESTAMP_MAX_LENGTH,
} from './report-form-rules.ts';

export * from './report-form-options.ts';
export * from './report-form-rules.ts';

const shortText = z
  .string({ error: M.invalid })
  .max(REPORT_LIMITS.shortText, M.tooLong(REPORT_LIMITS.shortText));
const longText = z
  .string({ error: M.invalid })
  .max(REPORT_LIMITS.longText, M.tooLong(REPORT_LIMITS.longText));
/** Evidence entries are ids of uploaded files (docs/requirements.md R-WIZ-4). */
const evidences = z
  .array(z.uuid({ error: M.invalid }), { error: M.invalid })
  .max(REPORT_LIMITS.evidencesPerItem, M.tooMany(REPORT_LIMITS.evidencesPerItem))
  .nullable();
const optionalEmail = z
  .string({ error: M.invalid })
  .trim()
  .max(EMAIL_MAX_LENGTH, M.email)
  .pipe(z.union([z.literal(''), z.email({ pattern: EMAIL_PATTERN, error: M.email })]))
  .nullable()
  .transform((value) => (value ? value : null));
const timestamp = z.string({ error: M.invalid }).max(TIMESTAMP_MAX_LENGTH, M.invalid).nullable();

/** An entry of a list that is not an object (an old or hand-edited draft) gets the same Korean message. */
const entry = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { error: M.invalid });

export const witnessSchema = entry({
  name: shortText,
  department: shortText,
  position: shortText,
  email: optionalEmail,
  email_sent_at: timestamp,
});
export type Witness = z.infer<typeof witnessSchema>;

const list = <T extends z.ZodType>(item: T, max: number) =>
  z.array(item, { error: M.invalid }).max(max, M.tooMany(max));

/**
 * The report form of R-WIZ-4, every field with its name and default. It is the locally kept draft and the
 * body of POST /api/v1/report/; this schema checks types and bounds only, `reportSubmissionSchema` adds what
 * a submission needs.
 */
export const reportFormSchema = z.object({
  report_type: z.enum([...REPORT_TYPES, ''], { error: M.invalid }).default(''),
  reporter_type: z.enum([...REPORTER_KINDS, ''], { error: M.invalid }).default(''),
  reporter_name: shortText.default(''),
  reporter_role: shortText.default(''),
  reporter_department: shortText.default(''),
  reporter_tenure: shortText.default(''),
  perpetrator_name: shortText.default(''),
  perpetrator_role: shortText.default(''),
  perpetrator_department: shortText.default(''),
  perpetrator_tenure: shortText.default(''),
  relationship: shortText.default(''),
  acts: list(
    entry({ date: shortText, location: shortText, description: longText, evidences }),
    REPORT_LIMITS.acts,
  ).default([]),
  harms: list(
    entry({ type: z.enum([...HARM_TYPES, ''], { error: M.invalid }), description: longText, evidences }),
    REPORT_LIMITS.harms,
  ).default([]),
  wishes: list(z.enum(WISH_OPTIONS, { error: M.invalid }), REPORT_LIMITS.wishes).default([]),
  wish_etc: longText.default(''),
  concerns: list(entry({ concern: longText, companyRequest: longText }), REPORT_LIMITS.concerns).default([]),
  extra_info: longText.default(''),
  witnesses: list(witnessSchema, REPORT_LIMITS.witnesses).default([]),
  protection_requests: list(
    z.enum(PROTECTION_OPTIONS, { error: M.invalid }),
    REPORT_LIMITS.protectionRequests,
  ).default([]),
  protection_etc: longText.default(''),
  perpetrator_email: optionalEmail.default(null),
  perpetrator_email_sent_at: timestamp.default(null),
  defendant_truth: z.enum([...DEFENDANT_TRUTH_OPTIONS, ''], { error: M.invalid }).default(''),
  defendant_true_part: longText.default(''),
  defendant_false_part: longText.default(''),
  defendant_opinion: longText.default(''),
  defendant_extra_info: longText.default(''),
  defendant_evidences: evidences.default(null),
  defendant_witnesses: list(witnessSchema, REPORT_LIMITS.witnesses).default([]),
  reference_witnessed: longText.default(''),
  reference_memory: longText.default(''),
  reference_opinion: longText.default(''),
  reference_evidences: evidences.default(null),
  last_edit: timestamp.default(null),
});
export type ReportForm = z.infer<typeof reportFormSchema>;
export type ReportFormInput = z.input<typeof reportFormSchema>;
export type ReportFormField = keyof ReportForm;

export function emptyReportForm(): ReportForm {
  return reportFormSchema.parse({});
}

/** The submission rules of report-form-rules.ts, as issues of a zod refinement. */
export function checkSubmission(form: ReportForm, ctx: z.RefinementCtx): void {
  for (const { path, message } of submissionIssues(form)) ctx.addIssue({ code: 'custom', path, message });
}

export const reportSubmissionSchema = reportFormSchema.superRefine(checkSubmission);

/**
 * The body of POST /api/v1/report/: the form, plus for an anonymous report an optional private contact address
 * for content-free notices (docs/decisions/0005). It is never stored inside the form.
 */
export const reportSubmissionBodySchema = reportFormSchema
  .extend({ contact_email: optionalEmail.default(null) })
  .superRefine((body, ctx) => {
    checkSubmission(body, ctx);
    if (body.contact_email && body.report_type !== 'anonym') {
      ctx.addIssue({
        code: 'custom',
        path: ['contact_email'],
        message: '연락용 개인 이메일은 익명 신고에서만 받습니다.',
      });
    }
  });
export type ReportSubmissionBody = z.infer<typeof reportSubmissionBodySchema>;

/** The reporter types a logged-in user submits (the others are statements through invitations). */
export function isReporterReportType(type: string): type is (typeof REPORTER_TYPES)[number] {
  return (REPORTER_TYPES as readonly string[]).includes(type);
}
