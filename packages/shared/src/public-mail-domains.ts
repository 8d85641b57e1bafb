/**
 * Public mail services: anyone can open a mailbox there, so a mailbox proves nothing about an employer. Such a
 * domain can never be a company's domain (claimed, added or given at creation), and an address there never
 * joins a company by its domain (docs/threat-model.md). Kept by hand: add a provider when one is seen in use.
 * A subdomain of one of these is refused too (`mail.naver.com`).
 */
export const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  // Korean services, current and former (old addresses are still in use)
  'naver.com',
  'daum.net',
  'hanmail.net',
  'kakao.com',
  'nate.com',
  'empas.com',
  'hanmir.com',
  'korea.com',
  'dreamwiz.com',
  'paran.com',
  'chol.com',
  'freechal.com',
  'lycos.co.kr',
  'hitel.net',
  'unitel.co.kr',
  'netian.com',
  'yahoo.co.kr',
  'hotmail.co.kr',
  'cyworld.com',
  'hanafos.com',
  // Google, Microsoft, Apple, Yahoo, AOL
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'outlook.kr',
  'hotmail.com',
  'live.com',
  'live.co.kr',
  'msn.com',
  'passport.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'yahoo.com',
  'ymail.com',
  'rocketmail.com',
  'yahoo.co.jp',
  'aol.com',
  'aim.com',
  // Privacy-minded and other global free services
  'proton.me',
  'protonmail.com',
  'protonmail.ch',
  'pm.me',
  'tutanota.com',
  'tutanota.de',
  'tuta.io',
  'tuta.com',
  'gmx.com',
  'gmx.net',
  'gmx.de',
  'web.de',
  'mail.com',
  'email.com',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'zoho.com',
  'zohomail.com',
  'fastmail.com',
  'hushmail.com',
  'mailfence.com',
  'posteo.de',
  'qq.com',
  '163.com',
  '126.com',
  'sina.com',
  'foxmail.com',
  'rediffmail.com',
  'inbox.com',
]);

/** True for a public mail service's domain or a subdomain of one (the domain lower-cased, without `@`). */
export function isPublicMailDomain(domain: string): boolean {
  const labels = domain.trim().toLowerCase().replace(/^@/, '').replace(/\.$/, '').split('.');
  for (let start = 0; start < labels.length - 1; start += 1) {
    if (PUBLIC_MAIL_DOMAINS.has(labels.slice(start).join('.'))) return true;
  }
  return false;
}

export const PUBLIC_MAIL_DOMAIN_MESSAGE_KO =
  '누구나 가입할 수 있는 공용 메일 도메인(네이버·다음·지메일 등)은 회사 도메인으로 등록할 수 없습니다.';
