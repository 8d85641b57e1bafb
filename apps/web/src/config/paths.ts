/**
 * Every route of spec §2, once. `name` is the spec's route name (kept as the React Router route id), `path`
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
  /** Second factors of the account (issue 11): TOTP, passkeys, recovery codes. */
  accountSecurity: { name: 'account-security', path: '/account/security', to: () => '/account/security' },
  manager: { name: 'manager', path: '/manager', to: () => '/manager' },
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
  receipt: { name: 'receipt', path: '/receipt', to: () => '/receipt' },
  intake: {
    name: 'intake-code',
    path: '/c/:code',
    to: (code: string) => `/c/${encodeURIComponent(code)}`,
  },
} as const;

export type RouteName = (typeof paths)[keyof typeof paths]['name'];
