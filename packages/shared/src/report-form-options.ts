/**
 * The report form's bounds, options and their Korean labels, apart from its zod schemas (report-form.ts): the
 * web shows these on pages that validate nothing, and a page that imports them must not pay for zod.
 */

/** Bounds for every string and list of the report form (R-WIZ-4: every string and list is bounded). */
export const REPORT_LIMITS = {
  shortText: 200,
  longText: 5000,
  acts: 50,
  harms: 50,
  concerns: 20,
  witnesses: 20,
  wishes: 20,
  protectionRequests: 10,
  evidencesPerItem: 20,
} as const;

export const REPORTER_KINDS = ['victim', 'third_party'] as const;
export const REPORTER_KIND_LABELS_KO: Record<(typeof REPORTER_KINDS)[number], string> = {
  victim: '피해자 본인',
  third_party: '목격자 등 제3자',
};

export const RELATIONSHIP_OPTIONS_KO = ['상급자', '동료', '하급자', '고객·거래처', '기타'] as const;

export const HARM_TYPES = ['mental', 'physical', 'economic', 'career', 'other'] as const;
export const HARM_TYPE_LABELS_KO: Record<(typeof HARM_TYPES)[number], string> = {
  mental: '정신적 피해',
  physical: '신체적 피해',
  economic: '경제적 피해',
  career: '업무·경력상 불이익',
  other: '기타',
};

export const WISH_OPTIONS = [
  'investigation',
  'apology',
  'separation',
  'discipline',
  'prevention',
  'counseling',
] as const;
export const WISH_LABELS_KO: Record<(typeof WISH_OPTIONS)[number], string> = {
  investigation: '객관적인 사실 조사',
  apology: '행위자의 사과',
  separation: '행위자와의 분리',
  discipline: '행위자 징계',
  prevention: '재발 방지 대책',
  counseling: '심리 상담 지원',
};

/** Protective measures the employer may take for the victim during and after the investigation (art. 76-3 ③④). */
export const PROTECTION_OPTIONS = [
  'workplace_change',
  'reassignment',
  'paid_leave',
  'separation',
  'other',
] as const;
export type ProtectionOption = (typeof PROTECTION_OPTIONS)[number];
export const PROTECTION_LABELS_KO: Record<(typeof PROTECTION_OPTIONS)[number], string> = {
  workplace_change: '근무장소 변경',
  reassignment: '배치전환',
  paid_leave: '유급휴가',
  separation: '행위자와의 분리',
  other: '기타',
};

export const DEFENDANT_TRUTH_OPTIONS = ['admit', 'partly_admit', 'deny'] as const;
export const DEFENDANT_TRUTH_LABELS_KO: Record<(typeof DEFENDANT_TRUTH_OPTIONS)[number], string> = {
  admit: '인정',
  partly_admit: '일부 인정',
  deny: '부인',
};
