import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageLoading } from '../components/page-loading';
import { paths } from '../config/paths';
import { clearReloadFlagWhenReady, withReloadOnce } from './lazy-reload';
import { RootRoute } from './root-route';
import { RouteError } from './route-error';
import type { RouteMeta } from './route-meta';

type PageModule = { default: React.ComponentType };

/**
 * Every page is its own chunk, loaded when first visited, and retried once by reloading (R-WEB-3). Pages get the
 * MUI theme and the query cache provider loaded beside them. `plain` pages (the landing and policy pages:
 * plain HTML that calls no API) go without either, `themeOnly` pages without the query cache, and `queryOnly`
 * pages (plain HTML that calls the API: /login, /report, the wizard's frame and first step) without the theme, which keeps a first visit of those
 * public pages small and quick to start (docs/requirements.md R-PERF-2, decision 0022).
 */
const page = (
  load: () => Promise<PageModule>,
  options: { plain?: boolean; themeOnly?: boolean; queryOnly?: boolean } = {},
) =>
  withReloadOnce(async () => {
    if (options.plain) return { Component: (await load()).default };
    if (options.queryOnly) {
      const [module, { withPageQuery }] = await Promise.all([load(), import('./page-query')]);
      return { Component: withPageQuery(module.default) };
    }
    if (options.themeOnly) {
      const [module, { withAppTheme }] = await Promise.all([load(), import('../lib/theme-provider')]);
      return { Component: withAppTheme(module.default) };
    }
    const [module, { withPageProviders }] = await Promise.all([load(), import('./page-providers')]);
    return { Component: withPageProviders(module.default) };
  });

const loginRequired: RouteMeta = { requiresAuth: true };
// An anonymous draft with an intake token goes through without a login (decision 0005); brief and formal do not.
const wizardRequired: RouteMeta = { requiresAuth: true, requiresReportType: true, allowsIntake: true };
const reportPage: RouteMeta = { requiresAuth: true, allowsReceipt: true };
const invitationPage: RouteMeta = { layout: 'minimal' };

/**
 * The routes of docs/requirements.md R-WEB-1, and the pages added since: the receipt and intake pages of decision 0005,
 * /register/resend, /privacy and /terms. The route id is the route name.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootRoute,
    ErrorBoundary: RouteError,
    HydrateFallback: PageLoading,
    children: [
      {
        id: paths.index.name,
        path: paths.index.path,
        lazy: page(() => import('../features/landing/landing-page'), { plain: true }),
      },
      {
        id: paths.login.name,
        path: paths.login.path,
        lazy: page(() => import('../features/auth/pages/login-page'), { queryOnly: true }),
      },
      {
        id: paths.logout.name,
        path: paths.logout.path,
        lazy: page(() => import('../features/auth/pages/logout-page')),
      },
      {
        id: paths.register.name,
        path: paths.register.path,
        lazy: page(() => import('../features/auth/pages/register-page')),
      },
      {
        id: paths.registerConfirm.name,
        path: paths.registerConfirm.path,
        lazy: page(() => import('../features/auth/pages/register-confirm-page')),
      },
      {
        id: paths.registerResend.name,
        path: paths.registerResend.path,
        lazy: page(() => import('../features/auth/pages/register-resend-page')),
      },
      {
        id: paths.forgotPassword.name,
        path: paths.forgotPassword.path,
        lazy: page(() => import('../features/auth/pages/forgot-password-page')),
      },
      {
        id: paths.resetPassword.name,
        path: paths.resetPassword.path,
        lazy: page(() => import('../features/auth/pages/reset-password-page')),
      },
      {
        id: paths.report.name,
        path: paths.report.path,
        lazy: page(() => import('../features/report-wizard/pages/report-type-page'), { queryOnly: true }),
      },
      {
        id: paths.reportT.name,
        path: paths.reportT.path,
        handle: wizardRequired,
        lazy: page(() => import('../features/report-wizard/pages/report-guide-page'), { themeOnly: true }),
      },
      {
        // R-WEB-1 (docs/requirements.md): the step page sits inside a wrapper layout that owns the stepper.
        path: paths.reportTA.path,
        handle: wizardRequired,
        lazy: page(() => import('../features/report-wizard/pages/wizard-layout'), { queryOnly: true }),
        children: [
          {
            id: paths.reportTA.name,
            index: true,
            lazy: page(() => import('../features/report-wizard/pages/wizard-step-page'), { queryOnly: true }),
          },
        ],
      },
      {
        id: paths.reference.name,
        path: paths.reference.path,
        handle: invitationPage,
        lazy: page(() => import('../features/invitation/reference-page')),
      },
      {
        id: paths.referenceA.name,
        path: paths.referenceA.path,
        handle: invitationPage,
        lazy: page(() => import('../features/invitation/reference-statement-page')),
      },
      {
        id: paths.defendant.name,
        path: paths.defendant.path,
        handle: invitationPage,
        lazy: page(() => import('../features/invitation/defendant-page')),
      },
      {
        id: paths.defendantA.name,
        path: paths.defendantA.path,
        handle: invitationPage,
        lazy: page(() => import('../features/invitation/defendant-statement-page')),
      },
      {
        id: paths.privacy.name,
        path: paths.privacy.path,
        lazy: page(() => import('../features/policies/privacy-page'), { plain: true }),
      },
      {
        id: paths.terms.name,
        path: paths.terms.path,
        lazy: page(() => import('../features/policies/terms-page'), { plain: true }),
      },
      {
        id: paths.dashboard.name,
        path: paths.dashboard.path,
        handle: loginRequired,
        lazy: page(() => import('../features/dashboard/dashboard-page')),
      },
      {
        id: paths.accountSecurity.name,
        path: paths.accountSecurity.path,
        handle: loginRequired,
        lazy: page(() => import('../features/account/security-page')),
      },
      {
        id: paths.manager.name,
        path: paths.manager.path,
        handle: loginRequired,
        lazy: page(() => import('../features/manager/manager-page')),
      },
      {
        id: paths.managerStats.name,
        path: paths.managerStats.path,
        handle: loginRequired,
        lazy: page(() => import('../features/manager/manager-stats-page')),
      },
      {
        id: paths.managerSettings.name,
        path: paths.managerSettings.path,
        handle: loginRequired,
        lazy: page(() => import('../features/company-settings/settings-page')),
      },
      {
        id: paths.domainVerify.name,
        path: paths.domainVerify.path,
        handle: invitationPage,
        lazy: page(() => import('../features/company-settings/domain-verify-page')),
      },
      {
        id: paths.managerDetail.name,
        path: paths.managerDetail.path,
        handle: loginRequired,
        lazy: page(() => import('../features/manager/manager-detail-page')),
      },
      {
        id: paths.operator.name,
        path: paths.operator.path,
        handle: loginRequired,
        lazy: page(() => import('../features/operator/operator-page')),
      },
      {
        id: paths.join.name,
        path: paths.join.path,
        lazy: page(() => import('../features/join/join-page')),
      },
      {
        id: paths.reportDetail.name,
        path: paths.reportDetail.path,
        handle: reportPage,
        lazy: page(() => import('../features/report-detail/report-detail-page')),
      },
      {
        id: paths.receipt.name,
        path: paths.receipt.path,
        lazy: page(() => import('../features/anonymous/pages/receipt-page'), { plain: true }),
      },
      {
        id: paths.intake.name,
        path: paths.intake.path,
        lazy: page(() => import('../features/anonymous/pages/intake-page'), { plain: true }),
      },
      { id: 'not-found', path: '*', lazy: page(() => import('./not-found-page'), { themeOnly: true }) },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  clearReloadFlagWhenReady(router);
  return router;
}
