import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REPORT_TYPES, type StepKey } from './constants.ts';
import { FIELD_MESSAGES_KO as M } from './messages.ko.ts';
import {
  DEFENDANT_TRUTH_OPTIONS,
  emptyReportForm,
  formErrors,
  HARM_TYPES,
  PROTECTION_OPTIONS,
  REPORT_LIMITS,
  REPORTER_KINDS,
  type ReportForm,
  reportSubmissionSchema,
  STEP_FIELDS,
  stepErrors,
  WISH_OPTIONS,
} from './report-form.ts';

/** What the zod schema says about one step: the rule the zod-free `stepErrors` must match exactly. */
function zodErrors(form: ReportForm, step?: StepKey): Record<string, string> {
  const result = reportSubmissionSchema.safeParse(form);
  if (result.success) return {};
  const fields = step ? new Set<string>(STEP_FIELDS[step]) : null;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const [head] = issue.path;
    if (fields && !(typeof head === 'string' && fields.has(head))) continue;
    errors[issue.path.join('.')] ??= issue.message;
  }
  return errors;
}
const zodStepErrors = (form: ReportForm, step: StepKey) => zodErrors(form, step);

// Values near every edge the schema has: empty, blank, the bounds and one past them.
const shortText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '김신고',
    'a'.repeat(REPORT_LIMITS.shortText),
    'a'.repeat(REPORT_LIMITS.shortText + 1),
  ),
  fc.string({ maxLength: 8 }),
);
const longText = fc.oneof(
  fc.constantFrom('', '  ', '회의 중 고성', 'a'.repeat(REPORT_LIMITS.longText + 1)),
  fc.string({ maxLength: 8 }),
);
const email = fc.constantFrom(
  null,
  '',
  '  ',
  'kim@example.com',
  ' kim@example.com ',
  'nope',
  'a@b',
  `${'a'.repeat(250)}@example.com`,
  '.kim@example.com',
  'kim..lee@example.com',
);
const timestamp = fc.constantFrom(null, '2026-11-26T01:00:00.000Z', 'x'.repeat(41));
const evidences = fc.oneof(
  fc.constant(null),
  fc.array(fc.oneof(fc.uuid(), fc.constantFrom('not-a-uuid', '00000000-0000-0000-0000-000000000000')), {
    maxLength: 3,
  }),
  fc.constant(Array(REPORT_LIMITS.evidencesPerItem + 1).fill('7d444840-9dc0-11d1-b245-5ffdce74fad2')),
);
const listOf = <T>(item: fc.Arbitrary<T>, max: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.array(item, { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.array(item, { minLength: max + 1, maxLength: max + 1 }) },
  );
const witness = fc.record({
  name: shortText,
  department: shortText,
  position: shortText,
  email,
  email_sent_at: timestamp,
});

const reportForm: fc.Arbitrary<ReportForm> = fc.record({
  report_type: fc.constantFrom('', ...REPORT_TYPES),
  reporter_type: fc.constantFrom('', ...REPORTER_KINDS),
  reporter_name: shortText,
  reporter_role: shortText,
  reporter_department: shortText,
  reporter_tenure: shortText,
  perpetrator_name: shortText,
  perpetrator_role: shortText,
  perpetrator_department: shortText,
  perpetrator_tenure: shortText,
  relationship: shortText,
  acts: listOf(
    fc.record({ date: shortText, location: shortText, description: longText, evidences }),
    REPORT_LIMITS.acts,
  ),
  harms: listOf(
    fc.record({ type: fc.constantFrom('', ...HARM_TYPES), description: longText, evidences }),
    REPORT_LIMITS.harms,
  ),
  wishes: listOf(fc.constantFrom(...WISH_OPTIONS), REPORT_LIMITS.wishes),
  wish_etc: longText,
  concerns: listOf(fc.record({ concern: longText, companyRequest: longText }), REPORT_LIMITS.concerns),
  extra_info: longText,
  witnesses: listOf(witness, REPORT_LIMITS.witnesses),
  protection_requests: listOf(fc.constantFrom(...PROTECTION_OPTIONS), REPORT_LIMITS.protectionRequests),
  protection_etc: longText,
  perpetrator_email: email,
  perpetrator_email_sent_at: timestamp,
  defendant_truth: fc.constantFrom('', ...DEFENDANT_TRUTH_OPTIONS),
  defendant_true_part: longText,
  defendant_false_part: longText,
  defendant_opinion: longText,
  defendant_extra_info: longText,
  defendant_evidences: evidences,
  defendant_witnesses: listOf(witness, REPORT_LIMITS.witnesses),
  reference_witnessed: longText,
  reference_memory: longText,
  reference_opinion: longText,
  reference_evidences: evidences,
  last_edit: timestamp,
}) as fc.Arbitrary<ReportForm>;

const steps = Object.keys(STEP_FIELDS) as StepKey[];

describe('zod-free step rules', () => {
  it('give, for every step of any draft, exactly the messages of the zod schema, in its order', () => {
    fc.assert(
      fc.property(reportForm, (form) => {
        for (const step of steps) {
          expect(Object.entries(stepErrors(form, step))).toEqual(Object.entries(zodStepErrors(form, step)));
        }
        expect(Object.entries(formErrors(form))).toEqual(Object.entries(zodErrors(form)));
      }),
      { numRuns: 400 },
    );
  }, 30_000); // 400 drafts × 10 steps through zod take a second here; a loaded CI machine needs room.

  it('treat a value of the wrong type, read back from an old draft, as zod does', () => {
    const form = { ...emptyReportForm(), report_type: 'formal', reporter_name: 42, acts: [null] };
    const broken = form as unknown as ReportForm;
    expect(stepErrors(broken, 'parties')).toEqual({ reporter_name: M.invalid });
    expect(stepErrors(broken, 'acts')).toEqual({ 'acts.0': M.invalid });
    expect(stepErrors(broken, 'parties')).toEqual(zodStepErrors(broken, 'parties'));
    expect(stepErrors(broken, 'acts')).toEqual(zodStepErrors(broken, 'acts'));
  });

  it('name the missing accused, act and reporter of a formal draft on their steps', () => {
    const form = { ...emptyReportForm(), report_type: 'formal' as const };
    expect(stepErrors(form, 'parties')).toEqual({
      reporter_type: M.required,
      reporter_name: M.required,
      perpetrator_name: M.required,
    });
    expect(stepErrors(form, 'acts')).toEqual({ acts: '괴롭힘 행위를 한 가지 이상 적어주세요.' });
  });
});
