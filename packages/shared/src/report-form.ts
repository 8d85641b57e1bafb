import { z } from 'zod';
import { REPORT_TYPES, REPORTER_TYPES, type ReportType, STEPS_BY_TYPE, type StepKey } from './constants.ts';
import { FIELD_MESSAGES_KO as M } from './messages.ko.ts';
import {
  DEFENDANT_TRUTH_OPTIONS,
  HARM_TYPES,
  PROTECTION_OPTIONS,
  REPORT_LIMITS,
  REPORTER_KINDS,
  WISH_OPTIONS,
} from './report-form-options.ts';

export * from './report-form-options.ts';

const shortText = z
  .string({ error: M.invalid })
  .max(REPORT_LIMITS.shortText, M.tooLong(REPORT_LIMITS.shortText));
const longText = z
  .string({ error: M.invalid })
  .max(REPORT_LIMITS.longText, M.tooLong(REPORT_LIMITS.longText));
/** Evidence entries are ids of uploaded files (DESIGN §3). */
const evidences = z
  .array(z.uuid({ error: M.invalid }), { error: M.invalid })
  .max(REPORT_LIMITS.evidencesPerItem, M.tooMany(REPORT_LIMITS.evidencesPerItem))
  .nullable();
const optionalEmail = z
  .string({ error: M.invalid })
  .trim()
  .max(254, M.email)
  .pipe(z.union([z.literal(''), z.email({ error: M.email })]))
  .nullable()
  .transform((value) => (value ? value : null));
const timestamp = z.string({ error: M.invalid }).max(40, M.invalid).nullable();

export const witnessSchema = z.object({
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
 * The report form of spec §3, every field with its name and default. It is the locally kept draft and the
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
    z.object({ date: shortText, location: shortText, description: longText, evidences }),
    REPORT_LIMITS.acts,
  ).default([]),
  harms: list(
    z.object({ type: z.enum([...HARM_TYPES, ''], { error: M.invalid }), description: longText, evidences }),
    REPORT_LIMITS.harms,
  ).default([]),
  wishes: list(z.enum(WISH_OPTIONS, { error: M.invalid }), REPORT_LIMITS.wishes).default([]),
  wish_etc: longText.default(''),
  concerns: list(z.object({ concern: longText, companyRequest: longText }), REPORT_LIMITS.concerns).default(
    [],
  ),
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

/** The fields each wizard step edits; a step is valid when the submission rules hold for its fields. */
export const STEP_FIELDS: Record<StepKey, readonly ReportFormField[]> = {
  parties: [
    'reporter_type',
    'reporter_name',
    'reporter_role',
    'reporter_department',
    'reporter_tenure',
    'perpetrator_name',
    'perpetrator_role',
    'perpetrator_department',
    'perpetrator_tenure',
    'perpetrator_email',
    'relationship',
  ],
  acts: ['acts'],
  harms: ['harms', 'wishes', 'wish_etc'],
  concerns: ['concerns'],
  witnessSuggestion: ['witnesses', 'extra_info'],
  protection: ['protection_requests', 'protection_etc'],
  witnesses: ['witnesses', 'extra_info', 'defendant_witnesses', 'defendant_extra_info'],
  reference: ['reference_witnessed', 'reference_memory', 'reference_opinion', 'reference_evidences'],
  defendantInfo: ['reporter_name', 'reporter_role', 'reporter_department', 'reporter_tenure'],
  defendantStatement: [
    'defendant_truth',
    'defendant_true_part',
    'defendant_false_part',
    'defendant_opinion',
    'defendant_evidences',
  ],
};

/** Identity fields of the reporter: never collected for, stored with, or shown in an anonymous report. */
export const REPORTER_IDENTITY_FIELDS = [
  'reporter_name',
  'reporter_role',
  'reporter_department',
  'reporter_tenure',
] as const satisfies readonly ReportFormField[];

function requireText(
  ctx: z.RefinementCtx,
  value: string,
  path: (string | number)[],
  message: string = M.required,
) {
  if (!value.trim()) ctx.addIssue({ code: 'custom', path, message });
}

/**
 * What a submission needs, per type. Anonymous reports must not carry the reporter's identity; brief and
 * formal reports name the reporter; every report names the accused person and at least one act.
 */
export function checkSubmission(form: ReportForm, ctx: z.RefinementCtx): void {
  const type = form.report_type as ReportType | '';
  if (!type) {
    ctx.addIssue({ code: 'custom', path: ['report_type'], message: '신고 유형을 선택해주세요.' });
    return;
  }
  if (type === 'reference') {
    requireText(ctx, form.reference_witnessed, ['reference_witnessed']);
    return;
  }
  if (type === 'defendant') {
    if (!form.defendant_truth)
      ctx.addIssue({ code: 'custom', path: ['defendant_truth'], message: M.required });
    requireText(ctx, form.defendant_opinion, ['defendant_opinion']);
    return;
  }
  if (!form.reporter_type) ctx.addIssue({ code: 'custom', path: ['reporter_type'], message: M.required });
  if (type === 'anonym') {
    for (const field of REPORTER_IDENTITY_FIELDS) {
      if (form[field].trim()) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: '익명 신고에는 신고인 정보를 적지 않습니다.',
        });
      }
    }
  } else {
    requireText(ctx, form.reporter_name, ['reporter_name']);
  }
  requireText(ctx, form.perpetrator_name, ['perpetrator_name']);
  if (form.acts.length === 0)
    ctx.addIssue({ code: 'custom', path: ['acts'], message: '괴롭힘 행위를 한 가지 이상 적어주세요.' });
  form.acts.forEach((act, index) => {
    requireText(ctx, act.date, ['acts', index, 'date']);
    requireText(ctx, act.description, ['acts', index, 'description']);
  });
  form.harms.forEach((harm, index) => {
    if (!harm.type) ctx.addIssue({ code: 'custom', path: ['harms', index, 'type'], message: M.required });
  });
  form.concerns.forEach((concern, index) => {
    requireText(ctx, concern.concern, ['concerns', index, 'concern']);
  });
  form.witnesses.forEach((witness, index) => {
    requireText(ctx, witness.name, ['witnesses', index, 'name']);
  });
  if (form.protection_requests.includes('other')) requireText(ctx, form.protection_etc, ['protection_etc']);
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

/** Field errors of one wizard step: the submission issues whose path starts with one of the step's fields. */
export function stepErrors(form: ReportForm, step: StepKey): Record<string, string> {
  const result = reportSubmissionSchema.safeParse(form);
  if (result.success) return {};
  const fields = new Set<string>(STEP_FIELDS[step]);
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const [head] = issue.path;
    if (typeof head === 'string' && fields.has(head)) errors[issue.path.join('.')] ??= issue.message;
  }
  return errors;
}

export function stepsFor(type: ReportType | ''): readonly StepKey[] {
  return type ? STEPS_BY_TYPE[type] : [];
}
