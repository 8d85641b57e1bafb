import { expect, it } from 'vitest';
import { isPublicMailDomain, PUBLIC_MAIL_DOMAINS } from './public-mail-domains.ts';

it('knows the Korean and global free-mail services, their subdomains, in any case', () => {
  for (const domain of ['naver.com', 'daum.net', 'hanmail.net', 'kakao.com', 'nate.com', 'gmail.com'])
    expect(PUBLIC_MAIL_DOMAINS.has(domain), domain).toBe(true);
  expect(isPublicMailDomain('NAVER.com')).toBe(true);
  expect(isPublicMailDomain('@gmail.com')).toBe(true);
  expect(isPublicMailDomain('mail.naver.com')).toBe(true);
  expect(isPublicMailDomain('yahoo.co.kr')).toBe(true);
});

it('leaves a company domain, and one that only ends like a service, alone', () => {
  expect(isPublicMailDomain('corp.example')).toBe(false);
  expect(isPublicMailDomain('notnaver.com')).toBe(false);
  expect(isPublicMailDomain('co.kr')).toBe(false);
  expect(isPublicMailDomain('naver.com.evil.example')).toBe(false);
});
