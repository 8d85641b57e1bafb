/**
 * Korean mail templates. Each returns subject, plain text and HTML; the HTML is built from escaped values
 * only, since names and company names come from users.
 */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function layout(title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs
    .map((p) => `<p style="margin:0 0 16px;line-height:1.6">${escapeHtml(p)}</p>`)
    .join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#1867C0;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#555;word-break:break-all">버튼이 열리지 않으면 이 주소를 브라우저에 붙여넣어 주세요: ${escapeHtml(action.url)}</p>`
    : '';
  return `<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:'Pretendard','Apple SD Gothic Neo','Malgun Gothic',sans-serif;color:#222;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px;margin:0 0 24px">${escapeHtml(title)}</h1>${body}${button}
<hr style="border:none;border-top:1px solid #ddd;margin:32px 0 16px">
<p style="font-size:12px;color:#777">안심신고 — 안전하고 공정한 일터를 위한 직장 내 괴롭힘 신고 플랫폼. 이 메일은 발신 전용입니다.</p>
</body></html>`;
}

function plain(paragraphs: string[], action?: { label: string; url: string }): string {
  const lines = [...paragraphs];
  if (action) lines.push(`${action.label}: ${action.url}`);
  lines.push('', '— 안심신고 (발신 전용 메일입니다)');
  return lines.join('\n\n');
}

function render(title: string, paragraphs: string[], action?: { label: string; url: string }): RenderedMail {
  return {
    subject: `[안심신고] ${title}`,
    text: plain(paragraphs, action),
    html: layout(title, paragraphs, action),
  };
}

export function confirmEmailMail(input: { name: string; url: string }): RenderedMail {
  return render(
    '이메일 주소를 인증해주세요',
    [
      `${input.name}님, 안심신고에 가입해주셔서 감사합니다.`,
      '아래 버튼을 눌러 이메일 주소 인증을 마치면 로그인할 수 있습니다. 이 링크는 24시간 동안 한 번만 사용할 수 있습니다.',
      '직접 가입하지 않으셨다면 이 메일을 무시하셔도 됩니다.',
    ],
    { label: '이메일 인증하기', url: input.url },
  );
}

export function alreadyRegisteredMail(input: { url: string }): RenderedMail {
  return render(
    '이미 가입된 이메일 주소입니다',
    [
      '이 이메일 주소로 안심신고 가입 요청이 들어왔지만, 이미 가입된 계정이 있습니다.',
      '비밀번호가 기억나지 않으면 아래 버튼으로 비밀번호를 재설정할 수 있습니다. 직접 요청하지 않으셨다면 이 메일을 무시하셔도 됩니다.',
    ],
    { label: '비밀번호 재설정하기', url: input.url },
  );
}

export function joinCodeUnknownMail(input: { url: string }): RenderedMail {
  return render(
    '가입 코드를 다시 확인해주세요',
    [
      '이 이메일 주소로 안심신고 가입 요청이 들어왔지만, 입력하신 가입 코드와 일치하는 회사가 없어 가입을 진행하지 않았습니다.',
      '회사 담당자에게 받은 가입 코드를 다시 확인한 뒤 아래 버튼을 눌러 다시 가입해주세요. 직접 요청하지 않으셨다면 이 메일을 무시하셔도 됩니다.',
    ],
    { label: '다시 가입하기', url: input.url },
  );
}

export function resetPasswordMail(input: { url: string }): RenderedMail {
  return render(
    '비밀번호 재설정 안내',
    [
      '비밀번호 재설정 요청을 받았습니다. 아래 버튼을 눌러 새 비밀번호를 설정해주세요.',
      '이 링크는 1시간 동안 한 번만 사용할 수 있으며, 비밀번호를 바꾸면 로그인된 모든 기기에서 로그아웃됩니다.',
      '직접 요청하지 않으셨다면 이 메일을 무시하셔도 됩니다. 비밀번호는 바뀌지 않습니다.',
    ],
    { label: '비밀번호 재설정하기', url: input.url },
  );
}

/** To the company's managers. Only the case number and type: no content and nothing about who reported. */
export function newCaseMail(input: { caseNumber: string; typeLabel: string; url: string }): RenderedMail {
  return render(
    `새 신고가 접수되었습니다 (${input.caseNumber})`,
    [
      `사건번호 ${input.caseNumber}, ${input.typeLabel}가 접수되었습니다.`,
      '근로기준법 제76조의3에 따라 지체 없이 사실 확인을 위한 조사를 시작해야 합니다. 신고 내용은 안심신고에 로그인한 뒤 확인할 수 있습니다.',
      '신고 내용과 신고인에 관한 정보는 조사와 관계없는 사람에게 알려서는 안 됩니다.',
    ],
    { label: '사건 확인하기', url: input.url },
  );
}

/** To the reporter. Says only that something changed; what changed is read after logging in. */
export function caseUpdatedMail(input: {
  caseNumber: string;
  url: string;
  what: 'status' | 'message';
}): RenderedMail {
  const what = input.what === 'status' ? '처리 상태가 바뀌었습니다' : '담당자가 메시지를 남겼습니다';
  return render(
    `신고하신 사건에 새 소식이 있습니다 (${input.caseNumber})`,
    [`신고하신 사건(${input.caseNumber})의 ${what}.`, '내용은 안심신고에 로그인한 뒤 확인할 수 있습니다.'],
    { label: '내 신고 확인하기', url: input.url },
  );
}

export const ANONYMOUS_NOTICE_TEMPLATE = 'anonymous_notice';

/**
 * To an anonymous reporter's private address (decision 0005). It says nothing a mail server's log could tie to
 * a case: no case number, no report id, no company, and no link but the receipt page.
 */
export function anonymousNoticeMail(input: { receiptUrl: string }): RenderedMail {
  return render(
    '남기신 신고에 새 소식이 있습니다',
    [
      '안심신고에 남기신 신고에 새 소식이 있습니다.',
      '접수번호로 들어가 확인해주세요. 이 메일은 소식이 생긴 때와 다른 시간에 보내질 수 있습니다.',
    ],
    { label: '접수번호로 확인하기', url: input.receiptUrl },
  );
}

/** To the company's managers: the reporter wrote on a case. No content, no name. */
export function reporterMessageMail(input: { caseNumber: string; url: string }): RenderedMail {
  return render(
    `사건 ${input.caseNumber}에 신고인의 새 메시지가 있습니다`,
    [
      `사건번호 ${input.caseNumber}에 신고인이 메시지를 남겼습니다.`,
      '내용은 안심신고에 로그인한 뒤 확인할 수 있습니다.',
    ],
    { label: '사건 확인하기', url: input.url },
  );
}

/**
 * To the accused person or a witness. Names the company, the case number, what is asked and by when, and
 * the confidentiality duty — never the reporter, not even by hint.
 */
export function invitationMail(input: {
  kind: 'defendant' | 'reference';
  name: string;
  companyName: string;
  caseNumber: string;
  dueDate: string;
  url: string;
}): RenderedMail {
  const asked =
    input.kind === 'defendant'
      ? `접수된 직장 내 괴롭힘 신고 사건(사건번호 ${input.caseNumber})과 관련하여, 신고된 내용에 대한 귀하의 입장과 진술을 요청드립니다.`
      : `접수된 직장 내 괴롭힘 신고 사건(사건번호 ${input.caseNumber})과 관련하여, 참고인으로서 보거나 들은 내용에 대한 진술을 요청드립니다.`;
  return render(
    `${input.companyName} 사건 ${input.caseNumber} 진술 요청`,
    [
      `${input.name}님, ${input.companyName}의 고충처리 담당자가 안심신고를 통해 보내는 메일입니다.`,
      asked,
      `아래 링크에서 ${input.dueDate}까지 진술서를 작성해주세요. 회원가입 없이 작성할 수 있으며, 링크는 본인만 사용해주세요.`,
      '근로기준법 제76조의3 제7항에 따라 조사 과정에서 알게 된 비밀을 다른 사람에게 누설해서는 안 됩니다.',
    ],
    { label: '진술서 작성하기', url: input.url },
  );
}

export type MfaChange =
  | 'totp_enabled'
  | 'totp_removed'
  | 'passkey_added'
  | 'passkey_removed'
  | 'recovery_regenerated';

const MFA_CHANGE_TEXT: Record<MfaChange, { title: string; body: string }> = {
  totp_enabled: {
    title: '2단계 인증(인증 앱)이 설정되었습니다',
    body: '계정에 인증 앱을 이용한 2단계 인증이 설정되었습니다. 이제 로그인할 때 비밀번호와 함께 인증 앱의 6자리 코드를 입력해야 합니다. 다른 기기에 로그인되어 있던 세션은 모두 종료되었습니다.',
  },
  totp_removed: {
    title: '2단계 인증(인증 앱)이 해제되었습니다',
    body: '계정에서 인증 앱을 이용한 2단계 인증이 해제되었습니다.',
  },
  passkey_added: {
    title: '패스키가 등록되었습니다',
    body: '계정에 새 패스키가 2단계 인증 수단으로 등록되었습니다. 다른 기기에 로그인되어 있던 세션은 모두 종료되었습니다.',
  },
  passkey_removed: {
    title: '패스키가 삭제되었습니다',
    body: '계정에 등록된 패스키 하나가 삭제되었습니다.',
  },
  recovery_regenerated: {
    title: '복구 코드가 새로 발급되었습니다',
    body: '계정의 복구 코드 10개가 새로 발급되었습니다. 이전에 받은 복구 코드는 더 이상 사용할 수 없습니다.',
  },
};

/** To the account holder, after any change to its second factors. Says what changed, never a code. */
export function mfaChangedMail(input: { change: MfaChange }): RenderedMail {
  const text = MFA_CHANGE_TEXT[input.change];
  return render(text.title, [
    text.body,
    '직접 변경하지 않으셨다면 즉시 비밀번호를 재설정하고 회사의 안심신고 관리자에게 알려주세요.',
  ]);
}

/** To the account holder: a recovery code was used to log in. */
export function recoveryCodeUsedMail(input: { left: number }): RenderedMail {
  return render('복구 코드로 로그인했습니다', [
    `방금 복구 코드로 계정에 로그인했습니다. 남은 복구 코드는 ${input.left}개입니다.`,
    '인증 앱이나 패스키를 잃어버리셨다면 내 계정에서 새로 등록하고 복구 코드를 다시 발급해주세요.',
    '직접 로그인하지 않으셨다면 즉시 비밀번호를 재설정하고 회사의 안심신고 관리자에게 알려주세요.',
  ]);
}

/** One line of a handler's daily digest: a case number, which deadline, and its date. Nothing else. */
export interface DigestEntry {
  caseNumber: string;
  deadline: 'ack' | 'feedback';
  /** The due date as a Korean calendar day, YYYY-MM-DD. */
  dueDate: string;
  isOverdue: boolean;
}

/**
 * To a case handler, once a day: what is overdue and what falls due in the next 7 days. Case numbers and dates
 * only — no names, no content, and no report type, so an anonymous case is not singled out in a mailbox.
 */
export function deadlineDigestMail(input: { entries: DigestEntry[]; url: string }): RenderedMail {
  const line = (entry: DigestEntry) =>
    `사건 ${entry.caseNumber} · ${entry.deadline === 'ack' ? '접수 확인' : '결과 통지'} 기한 ${entry.dueDate}${entry.isOverdue ? ' (기한 지남)' : ''}`;
  const overdue = input.entries.filter((entry) => entry.isOverdue);
  const upcoming = input.entries.filter((entry) => !entry.isOverdue);
  return render(
    `처리 기한 알림: 기한 지남 ${overdue.length}건, 7일 안에 돌아오는 기한 ${upcoming.length}건`,
    [
      '담당하시는 사건의 처리 기한을 알려드립니다.',
      ...(overdue.length ? ['기한이 지난 사건', ...overdue.map(line)] : []),
      ...(upcoming.length ? ['7일 안에 기한이 돌아오는 사건', ...upcoming.map(line)] : []),
      '사건 내용은 안심신고에 로그인한 뒤 확인할 수 있습니다.',
    ],
    { label: '사건 목록 보기', url: input.url },
  );
}

/** Sent to an address at a mail domain a company admin wants to add: only its reader can prove the claim. */
export function domainClaimMail(input: { companyName: string; domain: string; url: string }): RenderedMail {
  return render(
    `${input.domain} 도메인 등록을 확인해주세요`,
    [
      `${input.companyName}의 관리자가 안심신고에 메일 도메인 ${input.domain}을(를) 회사 도메인으로 등록하려고 합니다.`,
      `등록되면 ${input.domain} 주소로 가입하는 사람은 ${input.companyName}의 직원으로 연결됩니다. 이 도메인이 해당 회사의 것이 맞다면 아래 버튼을 눌러 확인해주세요. 이 링크는 48시간 동안 한 번만 사용할 수 있습니다.`,
      '요청한 적이 없거나 회사와 관계없는 도메인이라면 이 메일을 무시하셔도 됩니다. 아무것도 바뀌지 않습니다.',
    ],
    { label: '도메인 등록 확인하기', url: input.url },
  );
}

/**
 * To someone invited to handle a company's cases or run it. Names the company, the role and who sent it (the
 * company or the platform's operator); no case, no reporter.
 */
export function companyInvitationMail(input: {
  companyName: string;
  roleLabel: string;
  byOperator: boolean;
  dueDate: string;
  url: string;
}): RenderedMail {
  const from = input.byOperator
    ? `안심신고 운영팀이 ${input.companyName}의 안심신고 ${input.roleLabel}로 초대합니다.`
    : `${input.companyName}에서 안심신고 ${input.roleLabel}로 초대했습니다.`;
  return render(
    `${input.companyName} 안심신고 ${input.roleLabel} 초대`,
    [
      from,
      `아래 버튼을 눌러 ${input.dueDate}까지 초대를 수락해주세요. 처음이라면 이름과 비밀번호를 정해 계정을 만들고, 이미 계정이 있다면 그 계정으로 로그인해 수락하면 됩니다.`,
      '사건을 다루는 계정은 수락한 뒤 인증 앱이나 패스키로 2단계 인증을 설정해야 합니다.',
      '초대받을 일이 없으셨다면 이 메일을 무시하셔도 됩니다.',
    ],
    { label: '초대 수락하기', url: input.url },
  );
}

/** To a new operator: the platform's operator sets a password through the usual reset link. */
export function operatorWelcomeMail(input: { url: string }): RenderedMail {
  return render(
    '안심신고 운영자 계정이 만들어졌습니다',
    [
      '안심신고 운영자 계정이 만들어졌습니다. 아래 버튼을 눌러 비밀번호를 정해주세요.',
      '이 링크는 1시간 동안 한 번만 사용할 수 있습니다. 시간이 지났다면 로그인 화면의 "비밀번호 찾기"로 새 링크를 받을 수 있습니다.',
      '처음 로그인한 뒤 인증 앱이나 패스키로 2단계 인증을 설정해야 운영 콘솔을 쓸 수 있습니다.',
    ],
    { label: '비밀번호 정하기', url: input.url },
  );
}
