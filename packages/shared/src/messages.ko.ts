import type { ErrorCode } from './error-codes.ts';

/** Korean text for every server error code; the exact strings of docs/requirements.md R-WEB-7 where it names them. */
export const ERROR_MESSAGES_KO: Record<ErrorCode, string> = {
  VALIDATION_ERROR: '입력값을 확인해주세요.',
  BODY_TOO_COMPLEX: '요청 내용의 구조가 너무 깊거나 목록이 너무 깁니다. 입력 내용을 확인해주세요.',
  INVALID_CREDENTIALS: '이메일 또는 비밀번호가 올바르지 않습니다.',
  CAPTCHA_FAILED: '자동 입력 방지 확인에 실패했습니다. 다시 시도해주세요.',
  INVALID_MFA_CODE: '인증 코드가 올바르지 않거나 이미 사용되었습니다. 다시 확인해주세요.',
  MFA_CHALLENGE_EXPIRED: '인증 시간이 지났습니다. 처음부터 다시 로그인해주세요.',
  INVALID_TOKEN: '링크가 유효하지 않거나 만료되었습니다. 다시 요청해주세요.',
  INVALID_ASSIGNEE:
    '이 사건을 맡길 수 없는 사용자입니다. 같은 회사의 사건 담당자 중 이 사건에서 제외되지 않은 사람만 지정할 수 있습니다.',
  UNAUTHORIZED: '로그인이 필요합니다.',
  FORBIDDEN: '접근 권한이 없습니다.',
  CSRF_FAILED: '보안 확인에 실패했습니다. 페이지를 새로고침한 뒤 다시 시도해주세요.',
  EMAIL_NOT_CONFIRMED: '이메일 인증이 완료되지 않았습니다. 받은 편지함의 인증 메일을 확인해주세요.',
  NO_COMPANY:
    '소속 회사가 확인되지 않았습니다. 회사 이메일로 가입하거나 회사에서 받은 가입 코드를 입력해주세요.',
  MFA_ENROLLMENT_REQUIRED:
    '사건 담당자는 2단계 인증을 설정해야 합니다. 내 계정에서 인증 앱이나 패스키를 등록해주세요.',
  COMPANY_SUSPENDED:
    '소속 회사의 안심신고 이용이 일시 중지되었습니다. 회사 담당자나 안심신고 운영팀에 문의해주세요.',
  INVITATION_WRONG_ACCOUNT:
    '이 초대는 다른 이메일 주소로 보내졌습니다. 초대받은 이메일 주소의 계정으로 로그인한 뒤 다시 열어주세요.',
  NOT_FOUND: '요청한 항목을 찾을 수 없습니다.',
  JOIN_CODE_UNKNOWN: '가입 코드를 찾을 수 없습니다. 회사에서 받은 코드를 다시 확인해주세요.',
  USER_NOT_FOUND: '사용자 계정을 찾을 수 없습니다.',
  METHOD_NOT_ALLOWED: '허용되지 않는 요청 방식입니다.',
  CONFLICT: '요청이 현재 상태와 충돌합니다.',
  ALREADY_IN_COMPANY: '이미 회사에 연결된 계정입니다. 다른 회사로 옮기려면 운영자에게 문의해주세요.',
  INVALID_TRANSITION: '현재 상태에서는 이 단계로 변경할 수 없습니다.',
  FILE_IN_USE: '제출된 신고에 첨부된 파일은 삭제할 수 없습니다.',
  LAST_ADMIN: '회사의 마지막 관리자는 역할을 바꿀 수 없습니다. 다른 관리자를 먼저 지정해주세요.',
  DOMAIN_TAKEN: '이미 등록되었거나 다른 회사가 사용 중인 도메인입니다.',
  ALREADY_SUBMITTED: '이미 진술서를 제출했습니다.',
  CASE_CLOSED:
    '종결된 사건은 메모와 메시지만 남길 수 있습니다. 보호조치나 진술 요청을 바꾸려면 먼저 사건을 다시 열어주세요.',
  IN_ANOTHER_COMPANY:
    '이미 다른 회사에 소속된 계정입니다. 한 계정은 한 회사에만 소속될 수 있으니, 초대한 회사 담당자에게 다른 이메일 주소로 초대해 달라고 요청해주세요.',
  INVITATION_EXPIRED: '요청 링크의 유효 기간이 지났습니다. 담당자에게 새 링크를 요청해주세요.',
  INTAKE_EXPIRED:
    '익명 신고 작성 시간이 지나 첨부한 파일이 삭제되었습니다. 파일을 다시 첨부한 뒤 제출해주세요.',
  DATA_ERASED: '이 내용은 영구 삭제되어 더 이상 열람할 수 없습니다.',
  PAYLOAD_TOO_LARGE: '파일이 너무 큽니다. 허용된 크기 이하의 파일을 올려주세요.',
  BODY_TOO_LARGE: '요청 내용이 너무 큽니다. 입력 내용을 줄여 다시 시도해주세요.',
  UNSUPPORTED_MEDIA_TYPE: '지원하지 않는 형식입니다.',
  FILE_METADATA_UNREMOVABLE:
    '이 파일에서 작성자·위치 같은 정보를 지울 수 없어 익명 신고에는 첨부할 수 없습니다. 실명 신고(약식·정식)에는 첨부할 수 있습니다.',
  FILE_NOT_NEUTRALISED:
    '이 파일에서 작성자·위치 정보나 외부 링크를 지울 수 없어 익명 신고인에게 보낼 수 없습니다. PDF로 변환해 보내주세요.',
  CONTACT_EMAIL_NOT_PRIVATE:
    '회사 메일 주소나 이 서비스 계정에 등록된 주소로는 알림을 받을 수 없습니다. 회사와 관계없는 개인 메일 주소를 입력하거나 칸을 비워 두세요.',
  MEASURE_OBJECTED: '신고인이 반대 의견을 밝힌 보호조치입니다. 그래도 시행하려면 그 사유를 기록해주세요.',
  RATE_LIMITED: '요청이 너무 많습니다. 잠시 후 다시 시도해주세요.',
  INTERNAL_SERVER_ERROR: '서버에서 오류가 발생했습니다.',
  BAD_GATEWAY: '서버가 응답하지 않습니다. 잠시 후 다시 시도해주세요.',
  SERVICE_UNAVAILABLE: '서비스를 일시적으로 사용할 수 없습니다. 잠시 후 다시 시도해주세요.',
  UPLOAD_BUSY: '지금은 처리 중인 파일이 많아 파일을 받지 못했습니다. 잠시 후 같은 파일을 다시 올려주세요.',
};

/** Client-side messages: the exact strings of docs/requirements.md R-WEB-7 (catalogue) and R-WIZ-7. */
export const CLIENT_MESSAGES_KO = {
  UNKNOWN: '알 수 없는 오류가 발생했습니다.',
  ECONNABORTED: '요청 시간이 초과되었습니다. 네트워크를 확인해주세요.',
  NETWORK: '네트워크 오류입니다. 인터넷 연결을 확인해주세요.',
  ERR_CANCELED: '요청이 취소되었습니다.',
  OTHER_NETWORK: '네트워크 연결 중 오류가 발생했습니다.',
  SUBMIT_SUCCESS: '신고가 성공적으로 접수되었습니다.',
  NO_REPORT_TYPE: '신고 유형을 선택해주세요.',
} as const;

/** A RATE_LIMITED answer that says which limit: messages on one case by one caller. */
export const MESSAGE_RATE_LIMITED_KO = '메시지를 짧은 시간에 너무 많이 보냈습니다. 잠시 후 다시 보내주세요.';

/** Field-level validation messages used inside the shared zod schemas. */
export const FIELD_MESSAGES_KO = {
  required: '필수 입력 항목입니다.',
  email: '올바른 이메일 주소를 입력해주세요.',
  passwordTooShort: '비밀번호는 8자 이상이어야 합니다.',
  passwordTooLong: '비밀번호는 128자 이하여야 합니다.',
  passwordTooCommon: '너무 흔한 비밀번호입니다. 다른 비밀번호를 사용해주세요.',
  tooLong: (max: number) => `${max}자 이하로 입력해주세요.`,
  tooMany: (max: number) => `최대 ${max}개까지 입력할 수 있습니다.`,
  invalid: '올바르지 않은 값입니다.',
  nameRequired: '이름을 입력해주세요.',
  captchaRequired: '자동 입력 방지 확인을 완료해주세요.',
  passwordMismatch: '비밀번호가 일치하지 않습니다.',
  currentPasswordWrong: '현재 비밀번호가 올바르지 않습니다.',
  mfaCode: '인증 앱의 6자리 숫자나 복구 코드를 입력해주세요.',
  uploadMalformed: '파일을 받는 중 요청이 끊겼거나 형식이 올바르지 않습니다. 다시 올려주세요.',
} as const;
