import { describe, expect, it } from 'vitest';
import { afterLoginPath, guardRedirect, loginRedirectFor, safeRedirect } from './guards';

const ORIGIN = 'https://ansim.example';
const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });

describe('loginRedirectFor', () => {
  it('keeps path, query and hash, encoded into one redirect parameter', () => {
    expect(loginRedirectFor(at('/dashboard'))).toBe('/login?redirect=%2Fdashboard');
    expect(loginRedirectFor(at('/report-detail/5', '?tab=history', '#note'))).toBe(
      '/login?redirect=%2Freport-detail%2F5%3Ftab%3Dhistory%23note',
    );
  });
});

describe('safeRedirect', () => {
  it('follows same-origin paths with their query and hash', () => {
    expect(safeRedirect('/report-detail/5?tab=history#note', ORIGIN)).toBe(
      '/report-detail/5?tab=history#note',
    );
  });
  it.each([
    ['missing', null],
    ['empty', ''],
    ['protocol-relative', '//evil.example/x'],
    ['backslash trick', '/\\evil.example'],
    ['tab trick', '/\t/evil.example'],
    ['absolute URL', 'https://evil.example/'],
    ['same-origin absolute URL', `${ORIGIN}/dashboard`],
    ['javascript URL', 'javascript:alert(1)'],
    ['relative path', 'dashboard'],
    ['login loop', '/login?redirect=%2Fdashboard'],
  ])('falls back to /dashboard for a %s', (_name, raw) => {
    expect(safeRedirect(raw, ORIGIN)).toBe('/dashboard');
  });
});

describe('afterLoginPath', () => {
  it('sends a manager to the case list and a member to the dashboard when nothing was asked for', () => {
    expect(afterLoginPath(null, ORIGIN, 'manager')).toBe('/manager');
    expect(afterLoginPath(null, ORIGIN, 'operator')).toBe('/operator');
    expect(afterLoginPath(null, ORIGIN, 'member')).toBe('/dashboard');
    expect(afterLoginPath(undefined, ORIGIN, undefined)).toBe('/dashboard');
  });

  it('follows an asked-for page whatever the role', () => {
    expect(afterLoginPath('/report/t/a?step=2', ORIGIN, 'manager')).toBe('/report/t/a?step=2');
    expect(afterLoginPath('/dashboard', ORIGIN, 'manager')).toBe('/dashboard');
  });

  it('falls back to the home of the role for a redirect it will not follow', () => {
    expect(afterLoginPath('https://evil.example/', ORIGIN, 'manager')).toBe('/manager');
    expect(afterLoginPath('/logout', ORIGIN, 'member')).toBe('/dashboard');
  });
});

describe('guardRedirect', () => {
  const loggedOut = { isLoggedIn: false, reportType: '' };
  it('lets open routes through', () => {
    expect(guardRedirect([], loggedOut, at('/'))).toBeNull();
  });
  it('sends a logged-out visitor of a login route to login with the full target', () => {
    expect(guardRedirect([{ requiresAuth: true }], loggedOut, at('/dashboard', '?a=1'))).toBe(
      '/login?redirect=%2Fdashboard%3Fa%3D1',
    );
  });
  it('checks login before the report type', () => {
    expect(
      guardRedirect([{ requiresAuth: true, requiresReportType: true }], loggedOut, at('/report/t')),
    ).toBe('/login?redirect=%2Freport%2Ft');
  });
  it('sends a logged-in visitor without a report type to /report', () => {
    expect(
      guardRedirect(
        [{ requiresAuth: true, requiresReportType: true }],
        { isLoggedIn: true, reportType: '' },
        at('/report/t'),
      ),
    ).toBe('/report');
  });
  it('lets a logged-in visitor with a type through', () => {
    expect(
      guardRedirect(
        [{ requiresReportType: true }],
        { isLoggedIn: true, reportType: 'formal' },
        at('/report/t/a'),
      ),
    ).toBeNull();
  });
});

describe('guardRedirect for anonymous reporting without an account (decision 0005)', () => {
  const wizard = [{ requiresAuth: true, requiresReportType: true, allowsIntake: true }];
  const stranger = { isLoggedIn: false, hasIntake: true };
  it('opens the anonymous wizard for a draft with an intake token', () => {
    expect(guardRedirect(wizard, { ...stranger, reportType: 'anonym' }, at('/report/t/a'))).toBeNull();
  });
  it('still sends brief and formal drafts to login, token or not', () => {
    for (const reportType of ['brief', 'formal'])
      expect(guardRedirect(wizard, { ...stranger, reportType }, at('/report/t'))).toBe(
        '/login?redirect=%2Freport%2Ft',
      );
  });
  it('sends an anonymous draft without a token to login', () => {
    expect(
      guardRedirect(wizard, { isLoggedIn: false, reportType: 'anonym', hasIntake: false }, at('/report/t')),
    ).toBe('/login?redirect=%2Freport%2Ft');
  });
  it('opens a report page in a receipt session, and only routes that allow it', () => {
    const detail = [{ requiresAuth: true, allowsReceipt: true }];
    const receipt = { isLoggedIn: false, reportType: '', hasReceiptSession: true };
    expect(guardRedirect(detail, receipt, at('/report-detail/5/'))).toBeNull();
    expect(guardRedirect([{ requiresAuth: true }], receipt, at('/dashboard'))).toBe(
      '/login?redirect=%2Fdashboard',
    );
  });
});
