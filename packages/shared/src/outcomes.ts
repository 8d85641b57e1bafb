// Apart from constants.ts, which every page loads: only the pages that record or show an outcome need these.

/** The recorded outcome of an investigation (근로기준법 제76조의3 ⑤). */
export const CASE_FINDINGS = ['substantiated', 'partially_substantiated', 'not_substantiated'] as const;
export type CaseFinding = (typeof CASE_FINDINGS)[number];
export const CASE_FINDING_LABELS_KO: Record<CaseFinding, string> = {
  substantiated: '괴롭힘 인정',
  partially_substantiated: '일부 인정',
  not_substantiated: '인정되지 않음',
};
export const CASE_ACTIONS = [
  'warning',
  'reprimand',
  'pay_cut',
  'suspension',
  'transfer',
  'dismissal',
  'training',
  'mediation',
  'none',
] as const;
export type CaseAction = (typeof CASE_ACTIONS)[number];
export const CASE_ACTION_LABELS_KO: Record<CaseAction, string> = {
  warning: '경고',
  reprimand: '견책',
  pay_cut: '감봉',
  suspension: '정직',
  transfer: '전보',
  dismissal: '해고',
  training: '교육',
  mediation: '조정·화해',
  none: '조치 없음',
};
