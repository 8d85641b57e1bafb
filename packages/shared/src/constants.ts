export const REPORT_TYPES = ['anonym', 'brief', 'formal', 'reference', 'defendant'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
/** The types a logged-in reporter files; `reference` and `defendant` are statements given through invitations. */
export const REPORTER_TYPES = ['anonym', 'brief', 'formal'] as const;
export type ReporterReportType = (typeof REPORTER_TYPES)[number];

export const REPORT_TYPE_LABELS_KO: Record<ReportType, string> = {
  anonym: '익명 신고',
  brief: '약식 신고',
  formal: '정식 신고',
  reference: '참고인 진술',
  defendant: '피신고인 진술',
};

export const STEP_LABELS_KO = {
  parties: '신고인·행위자 정보 및 관계',
  acts: '괴롭힘 행위 및 증거',
  harms: '피해 내용 및 요구사항',
  concerns: '사건 처리 과정에 대한 우려',
  witnessSuggestion: '참고인 제안 및 기타 사항',
  protection: '보호조치 요청',
  witnesses: '참고인 및 기타 사항',
  reference: '참고인 조사',
  defendantInfo: '인적 사항',
  defendantStatement: '신고 내용에 대한 진술',
} as const;
export type StepKey = keyof typeof STEP_LABELS_KO;

/** Steps per report type (docs/requirements.md R-WIZ-3: 4, 4, 5, 1, 3). */
export const STEPS_BY_TYPE: Record<ReportType, readonly StepKey[]> = {
  anonym: ['parties', 'acts', 'harms', 'concerns'],
  brief: ['parties', 'acts', 'harms', 'witnessSuggestion'],
  formal: ['parties', 'acts', 'harms', 'protection', 'witnesses'],
  reference: ['reference'],
  defendant: ['defendantInfo', 'defendantStatement', 'witnesses'],
};

export const REPORT_STATUSES = ['received', 'investigating', 'action_taken', 'closed', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export const REPORT_STATUS_LABELS_KO: Record<ReportStatus, string> = {
  received: '접수',
  investigating: '조사 중',
  action_taken: '조치 완료',
  closed: '종결',
  dismissed: '불성립',
};
/**
 * The handling steps of the Ministry of Employment and Labor's guide (R-CASE-5). An investigation may close
 * without action (with a recorded outcome), and an ended case may be reopened for a new investigation.
 */
export const STATUS_TRANSITIONS: Record<ReportStatus, readonly ReportStatus[]> = {
  received: ['investigating', 'dismissed'],
  investigating: ['action_taken', 'closed', 'dismissed'],
  action_taken: ['closed'],
  closed: ['investigating'],
  dismissed: ['investigating'],
};
/** An ended case: only notes, messages and reopening remain allowed. */
export const CLOSED_STATUSES: readonly ReportStatus[] = ['closed', 'dismissed'];
export const isClosedStatus = (status: string): boolean =>
  (CLOSED_STATUSES as readonly string[]).includes(status);
/** A change into `to` from `from` that must record the outcome of the investigation (76-3 ⑤). */
export const needsOutcome = (from: ReportStatus, to: ReportStatus): boolean =>
  to === 'action_taken' || (to === 'closed' && from === 'investigating');
/** Reopening an ended case: needs a written reason. */
export const isReopening = (from: ReportStatus, to: ReportStatus): boolean =>
  isClosedStatus(from) && to === 'investigating';

/**
 * A company's people: `member` reports; `investigator` handles only the cases assigned to them; `manager` handles
 * every case and assigns them; `admin` does what a manager does and runs the company's settings. `operator` runs
 * the platform, belongs to no company and never reads case content.
 */
export const COMPANY_ROLES = ['member', 'investigator', 'manager', 'admin'] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];
export const USER_ROLES = [...COMPANY_ROLES, 'operator'] as const;
export type UserRole = (typeof USER_ROLES)[number];
/** Roles that handle cases (the manager console). */
export const HANDLER_ROLES = ['investigator', 'manager', 'admin'] as const;
export type HandlerRole = (typeof HANDLER_ROLES)[number];
/** Roles that see every case of the company and assign them. */
export const CASE_MANAGER_ROLES = ['manager', 'admin'] as const;
export const isHandlerRole = (role: string | null | undefined): role is HandlerRole =>
  (HANDLER_ROLES as readonly string[]).includes(role ?? '');
export const isCaseManagerRole = (role: string | null | undefined): role is 'manager' | 'admin' =>
  (CASE_MANAGER_ROLES as readonly string[]).includes(role ?? '');
export const ROLE_LABELS_KO: Record<UserRole, string> = {
  member: '직원',
  investigator: '조사 담당자',
  manager: '담당자',
  admin: '관리자',
  operator: '운영자',
};

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'X-CSRFToken';
export const SESSION_COOKIE = 'sessionid';
/**
 * Under https the cookies carry the `__Host-` prefix: the browser then refuses one set by a sibling subdomain
 * or without Secure, so no other host can plant a CSRF token or a session (docs/decisions/0006).
 */
export const SECURE_CSRF_COOKIE = `__Host-${CSRF_COOKIE}`;
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

/** Names the half-finished login (password checked, second factor pending); HttpOnly, minutes long. */
export const MFA_CHALLENGE_COOKIE = 'mfachallenge';
export const SECURE_MFA_CHALLENGE_COOKIE = `__Host-${MFA_CHALLENGE_COOKIE}`;
export const RECOVERY_CODE_COUNT = 10;
/** On every answer to a request that carried a live session: when it ends if nothing else happens (epoch s). */
export const SESSION_EXPIRES_HEADER = 'X-Session-Expires';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const SNACKBAR_TIMEOUT_MS = 5000;
export const SNACKBAR_SWIPE_PX = 50;

/** The roles a company invitation can grant: the people who handle cases or run the company. */
export const INVITABLE_ROLES = ['investigator', 'manager', 'admin'] as const;
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

/**
 * What the settings log lists. The operator's suspension and resumption are in it too: the company's admin
 * should see when and by whom the company was stopped, since nobody could log in meanwhile.
 */
export const COMPANY_AUDIT_ACTIONS = [
  'company.settings',
  'company.join_code',
  'company.intake_code',
  'company.domain',
  'company.invitation',
  'user.role',
  'company.suspend',
  'company.resume',
] as const;
export type CompanyAuditAction = (typeof COMPANY_AUDIT_ACTIONS)[number];

/**
 * The id of the `<script type="application/json">` in which a prerendered page carries the operator's name and
 * contact (decision 0020): the API writes it, the web client reads it instead of calling GET /api/v1/site/.
 */
export const SITE_INFO_ELEMENT_ID = 'site-info';
