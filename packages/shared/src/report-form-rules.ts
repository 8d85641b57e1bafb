import { REPORT_TYPES, type ReportType, type StepKey } from './constants.ts';
import { FIELD_MESSAGES_KO as M } from './messages.ko.ts';
import type { ReportForm, ReportFormField } from './report-form.ts';
import {
  DEFENDANT_TRUTH_OPTIONS,
  HARM_TYPES,
  PROTECTION_OPTIONS,
  REPORT_LIMITS,
  REPORTER_KINDS,
  WISH_OPTIONS,
} from './report-form-options.ts';

/**
 * The report form's rules without zod. The wizard's step guard and stepper decide on every render whether a
 * step is complete, before anyone has typed; with zod that decision cost every wizard visit 20 KB of script.
 * The zod schemas in report-form.ts stay the contract the server enforces: they take the submission rules from
 * here (`submissionIssues`), and report-form-rules.test.ts checks that `stepErrors` below gives exactly the
 * messages the zod schema gives, over random drafts.
 */

export interface FormIssue {
  path: (string | number)[];
  message: string;
}

/** zod's own address pattern (z.email's default), named here so both checks use the same one. */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const UUID_PATTERN =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
export const EMAIL_MAX_LENGTH = 254;
export const TIMESTAMP_MAX_LENGTH = 40;

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

function requireText(issues: FormIssue[], value: string, path: (string | number)[]) {
  if (!value.trim()) issues.push({ path, message: M.required });
}

/**
 * What a submission needs, per type. Anonymous reports must not carry the reporter's identity; brief and
 * formal reports name the reporter; every report names the accused person and at least one act.
 */
export function submissionIssues(form: ReportForm): FormIssue[] {
  const issues: FormIssue[] = [];
  const type = form.report_type as ReportType | '';
  if (!type) return [{ path: ['report_type'], message: '신고 유형을 선택해주세요.' }];
  if (type === 'reference') {
    requireText(issues, form.reference_witnessed, ['reference_witnessed']);
    return issues;
  }
  if (type === 'defendant') {
    if (!form.defendant_truth) issues.push({ path: ['defendant_truth'], message: M.required });
    requireText(issues, form.defendant_opinion, ['defendant_opinion']);
    return issues;
  }
  if (!form.reporter_type) issues.push({ path: ['reporter_type'], message: M.required });
  if (type === 'anonym') {
    for (const field of REPORTER_IDENTITY_FIELDS) {
      if (form[field].trim())
        issues.push({ path: [field], message: '익명 신고에는 신고인 정보를 적지 않습니다.' });
    }
  } else {
    requireText(issues, form.reporter_name, ['reporter_name']);
  }
  requireText(issues, form.perpetrator_name, ['perpetrator_name']);
  if (form.acts.length === 0)
    issues.push({ path: ['acts'], message: '괴롭힘 행위를 한 가지 이상 적어주세요.' });
  form.acts.forEach((act, index) => {
    requireText(issues, act.date, ['acts', index, 'date']);
    requireText(issues, act.description, ['acts', index, 'description']);
  });
  form.harms.forEach((harm, index) => {
    if (!harm.type) issues.push({ path: ['harms', index, 'type'], message: M.required });
  });
  form.concerns.forEach((concern, index) => {
    requireText(issues, concern.concern, ['concerns', index, 'concern']);
  });
  form.witnesses.forEach((witness, index) => {
    requireText(issues, witness.name, ['witnesses', index, 'name']);
  });
  if (form.protection_requests.includes('other'))
    requireText(issues, form.protection_etc, ['protection_etc']);
  return issues;
}

/** The shape of each field as report-form.ts declares it in zod, for the bound checks below. */
type Shape =
  | { kind: 'text'; max: number }
  | { kind: 'email' }
  | { kind: 'timestamp' }
  | { kind: 'evidences' }
  | { kind: 'choice'; values: readonly string[] }
  | { kind: 'list'; item: Shape; max: number }
  | { kind: 'object'; fields: Record<string, Shape> };

const shortText: Shape = { kind: 'text', max: REPORT_LIMITS.shortText };
const longText: Shape = { kind: 'text', max: REPORT_LIMITS.longText };
const email: Shape = { kind: 'email' };
const timestamp: Shape = { kind: 'timestamp' };
const evidences: Shape = { kind: 'evidences' };
const choice = (values: readonly string[], orEmpty: boolean): Shape => ({
  kind: 'choice',
  values: orEmpty ? [...values, ''] : values,
});
const list = (item: Shape, max: number): Shape => ({ kind: 'list', item, max });
const witness: Shape = {
  kind: 'object',
  fields: { name: shortText, department: shortText, position: shortText, email, email_sent_at: timestamp },
};

const FIELD_SHAPES: Record<ReportFormField, Shape> = {
  report_type: choice(REPORT_TYPES, true),
  reporter_type: choice(REPORTER_KINDS, true),
  reporter_name: shortText,
  reporter_role: shortText,
  reporter_department: shortText,
  reporter_tenure: shortText,
  perpetrator_name: shortText,
  perpetrator_role: shortText,
  perpetrator_department: shortText,
  perpetrator_tenure: shortText,
  relationship: shortText,
  acts: list(
    { kind: 'object', fields: { date: shortText, location: shortText, description: longText, evidences } },
    REPORT_LIMITS.acts,
  ),
  harms: list(
    { kind: 'object', fields: { type: choice(HARM_TYPES, true), description: longText, evidences } },
    REPORT_LIMITS.harms,
  ),
  wishes: list(choice(WISH_OPTIONS, false), REPORT_LIMITS.wishes),
  wish_etc: longText,
  concerns: list(
    { kind: 'object', fields: { concern: longText, companyRequest: longText } },
    REPORT_LIMITS.concerns,
  ),
  extra_info: longText,
  witnesses: list(witness, REPORT_LIMITS.witnesses),
  protection_requests: list(choice(PROTECTION_OPTIONS, false), REPORT_LIMITS.protectionRequests),
  protection_etc: longText,
  perpetrator_email: email,
  perpetrator_email_sent_at: timestamp,
  defendant_truth: choice(DEFENDANT_TRUTH_OPTIONS, true),
  defendant_true_part: longText,
  defendant_false_part: longText,
  defendant_opinion: longText,
  defendant_extra_info: longText,
  defendant_evidences: evidences,
  defendant_witnesses: list(witness, REPORT_LIMITS.witnesses),
  reference_witnessed: longText,
  reference_memory: longText,
  reference_opinion: longText,
  reference_evidences: evidences,
  last_edit: timestamp,
};

/**
 * An issue is "blocking" where zod stops: a value of the wrong type or outside its choices, or a list longer
 * than its bound (zod then checks none of its items). zod then runs no refinement, so the submission rules are
 * not checked either; a text too long or an address malformed does not stop it.
 */
interface BoundIssue extends FormIssue {
  blocking: boolean;
}

/** The issue a value has in itself, before its items or fields are looked at; null when it has none. */
function ownIssue(value: unknown, shape: Shape): { message: string; blocking: boolean } | null {
  const blocking = (message: string = M.invalid) => ({ message, blocking: true });
  switch (shape.kind) {
    case 'text':
      if (typeof value !== 'string') return blocking();
      return value.length > shape.max ? { message: M.tooLong(shape.max), blocking: false } : null;
    case 'timestamp':
      if (value === null) return null;
      if (typeof value !== 'string') return blocking();
      return value.length > TIMESTAMP_MAX_LENGTH ? { message: M.invalid, blocking: false } : null;
    case 'email': {
      if (value === null) return null;
      if (typeof value !== 'string') return blocking();
      const address = value.trim();
      const isValid = address.length <= EMAIL_MAX_LENGTH && (address === '' || EMAIL_PATTERN.test(address));
      return isValid ? null : { message: M.email, blocking: false };
    }
    case 'choice':
      return shape.values.includes(value as string) ? null : blocking();
    case 'evidences':
      if (value === null) return null;
      if (!Array.isArray(value)) return blocking();
      return value.length > REPORT_LIMITS.evidencesPerItem
        ? blocking(M.tooMany(REPORT_LIMITS.evidencesPerItem))
        : null;
    case 'list':
      if (!Array.isArray(value)) return blocking();
      return value.length > shape.max ? blocking(M.tooMany(shape.max)) : null;
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? null : blocking();
  }
}

function checkShape(value: unknown, shape: Shape, path: (string | number)[], issues: BoundIssue[]): void {
  const own = ownIssue(value, shape);
  if (own) {
    issues.push({ path, ...own });
    if (own.blocking) return;
  }
  if (shape.kind === 'evidences' && Array.isArray(value)) {
    value.forEach((id, index) => {
      if (typeof id !== 'string') issues.push({ path: [...path, index], message: M.invalid, blocking: true });
      else if (!UUID_PATTERN.test(id))
        issues.push({ path: [...path, index], message: M.invalid, blocking: false });
    });
  } else if (shape.kind === 'list' && Array.isArray(value)) {
    value.forEach((item, index) => {
      checkShape(item, shape.item, [...path, index], issues);
    });
  } else if (shape.kind === 'object') {
    const record = value as Record<string, unknown>;
    for (const [key, inner] of Object.entries(shape.fields))
      checkShape(record[key], inner, [...path, key], issues);
  }
}

/**
 * Every issue of the draft as the server's zod schema finds them, in its order: the type and bound issues
 * field by field, then the submission rules (when every value has its type).
 */
function formIssues(form: ReportForm): FormIssue[] {
  const bounds: BoundIssue[] = [];
  const record = form as unknown as Record<string, unknown>;
  for (const [field, shape] of Object.entries(FIELD_SHAPES) as [ReportFormField, Shape][]) {
    checkShape(record[field], shape, [field], bounds);
  }
  return bounds.some((issue) => issue.blocking) ? bounds : [...bounds, ...submissionIssues(form)];
}

function firstMessages(issues: FormIssue[], fields?: ReadonlySet<string>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const [head] = issue.path;
    if (fields && !(typeof head === 'string' && fields.has(head))) continue;
    errors[issue.path.join('.')] ??= issue.message;
  }
  return errors;
}

/** Every submission error of the draft, keyed by dotted path, in the form's field order. */
export function formErrors(form: ReportForm): Record<string, string> {
  return firstMessages(formIssues(form));
}

/** Field errors of one wizard step: the draft's issues whose path starts with one of the step's fields. */
export function stepErrors(form: ReportForm, step: StepKey): Record<string, string> {
  return firstMessages(formIssues(form), new Set(STEP_FIELDS[step]));
}
