/**
 * Every route of R-WEB-1, once. `name` is the route's name there (kept as the React Router route id), `path`
 * the pattern, and `to` builds a concrete URL so no component spells a path by hand.
 */
export const paths = {
  index: { name: 'index', path: '/', to: () => '/' },
  login: {
    name: 'login',
    path: '/login',
    to: (redirect?: string) => (redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login'),
  },
  logout: { name: 'logout', path: '/logout', to: () => '/logout' },
  register: { name: 'register', path: '/register', to: () => '/register' },
  registerConfirm: { name: 'register-confirm', path: '/register/confirm', to: () => '/register/confirm' },
  registerResend: { name: 'register-resend', path: '/register/resend', to: () => '/register/resend' },
  forgotPassword: { name: 'forgot-password', path: '/forgot-password', to: () => '/forgot-password' },
  resetPassword: { name: 'reset-password', path: '/reset-password', to: () => '/reset-password' },
  report: { name: 'report', path: '/report', to: () => '/report' },
  reportT: { name: 'report-t', path: '/report/t', to: () => '/report/t' },
  reportTA: {
    name: 'report-t-a',
    path: '/report/t/a',
    /** `step` is the store's 0-based index; the address counts from 1 (lib/step-address.ts). */
    to: (step?: number) => (step === undefined ? '/report/t/a' : `/report/t/a?step=${step + 1}`),
  },
  reference: { name: 'reference', path: '/reference', to: () => '/reference' },
  referenceA: { name: 'reference-a', path: '/reference/a', to: () => '/reference/a' },
  defendant: { name: 'defendant', path: '/defendant', to: () => '/defendant' },
  defendantA: { name: 'defendant-a', path: '/defendant/a', to: () => '/defendant/a' },
  privacy: { name: 'privacy', path: '/privacy', to: () => '/privacy' },
  terms: { name: 'terms', path: '/terms', to: () => '/terms' },
  dashboard: { name: 'dashboard', path: '/dashboard', to: () => '/dashboard' },
  /** Second factors of the account (docs/requirements.md R-ACC-7): TOTP, passkeys, recovery codes. */
  accountSecurity: { name: 'account-security', path: '/account/security', to: () => '/account/security' },
  manager: { name: 'manager', path: '/manager', to: () => '/manager' },
  /** The company's statistics (R-STAT-2), for managers and admins; `YYYY-MM` months in the address. */
  managerStats: {
    name: 'manager-stats',
    path: '/manager/stats',
    to: (range?: { from: string; to: string }) =>
      range ? `/manager/stats?from=${range.from}&to=${range.to}` : '/manager/stats',
  },
  /** The company admin's settings (docs/requirements.md R-CO-2); `tab` opens one section. */
  managerSettings: {
    name: 'manager-settings',
    path: '/manager/settings',
    to: (tab?: string) => (tab ? `/manager/settings?tab=${encodeURIComponent(tab)}` : '/manager/settings'),
  },
  /** The link mailed to an address at a mail domain a company admin wants to add. */
  domainVerify: {
    name: 'domain-verify-token',
    path: '/domains/verify/:token',
    to: (token: string) => `/domains/verify/${encodeURIComponent(token)}`,
  },
  managerDetail: {
    name: 'manager-detail-id',
    path: '/manager/detail/:id',
    to: (id: string | number) => `/manager/detail/${encodeURIComponent(String(id))}`,
  },
  reportDetail: {
    name: 'report-detail-id',
    path: '/report-detail/:id',
    to: (id: string | number) => `/report-detail/${encodeURIComponent(String(id))}`,
  },
  /** The platform operator's console (docs/requirements.md R-CO-4): companies and platform health, never a case. */
  operator: { name: 'operator', path: '/operator', to: () => '/operator' },
  /** A company invitation's mailed link: set a password (or accept with the account) and join the company. */
  join: {
    name: 'join-token',
    path: '/join/:token',
    to: (token: string) => `/join/${encodeURIComponent(token)}`,
  },
  receipt: { name: 'receipt', path: '/receipt', to: () => '/receipt' },
  intake: {
    name: 'intake-code',
    path: '/c/:code',
    to: (code: string) => `/c/${encodeURIComponent(code)}`,
  },
} as const;

/** Parts of a page another page links to (`#…`): the account page's join-code form, from the type chooser. */
export const pageSections = { joinCompany: 'join-company' } as const;

export type RouteName = (typeof paths)[keyof typeof paths]['name'];
