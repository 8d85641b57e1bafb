import { lazy, Suspense } from 'react';
import { Navigate, Outlet, ScrollRestoration, useLocation, useMatches, useNavigation } from 'react-router';
import { guardRedirect } from '../lib/guards';
import { useIsLoggedIn } from '../lib/login-state';
import { useSessionExpired } from '../lib/session-sync';
import { useHasIntake } from '../stores/intake-token';
import { useHasReceiptSession } from '../stores/receipt-session';
import { useReportForm } from '../stores/report-form-store';
import { DefaultLayout, MinimalLayout } from './layouts/default-layout';
import { isRouteMeta, type LayoutName, type RouteMeta } from './route-meta';

// MUI's dialog is loaded only when a session has ended under an open page.
const SessionExpiredDialog = lazy(() => import('../components/session-expired-dialog'));

const LAYOUTS: Record<LayoutName, React.ComponentType<{ children: React.ReactNode }>> = {
  default: DefaultLayout,
  minimal: MinimalLayout,
};

/** Applies the navigation guard and wraps the page in the layout its route meta asks for. */
export function RootRoute() {
  const matches = useMatches();
  const location = useLocation();
  const navigation = useNavigation();
  const isLoggedIn = useIsLoggedIn();
  const reportType = useReportForm((state) => state.form.report_type);
  const hasIntake = useHasIntake();
  const hasReceiptSession = useHasReceiptSession();
  const isSessionExpired = useSessionExpired((state) => state.isExpired);
  const metas = matches.map((match) => match.handle).filter(isRouteMeta) as RouteMeta[];

  // While the expired-session dialog is up, the page it covers stays where it is: the dialog takes the person
  // to log in and back to this very address. Redirecting here instead would lose the wizard step, and the
  // dialog would then send them back to the login page itself.
  const redirect = guardRedirect(
    metas,
    { isLoggedIn: isLoggedIn || isSessionExpired, reportType, hasIntake, hasReceiptSession },
    location,
  );
  if (redirect) return <Navigate to={redirect} replace />;

  const layoutChoice = metas.reduce<RouteMeta['layout']>(
    (current, meta) => (meta.layout === undefined ? current : meta.layout),
    undefined,
  );
  const page = (
    <>
      <Outlet />
      <ScrollRestoration />
      {isSessionExpired && (
        <Suspense fallback={null}>
          <SessionExpiredDialog />
        </Suspense>
      )}
    </>
  );
  if (layoutChoice === false) return page;
  const Layout = LAYOUTS[layoutChoice ?? 'default'];
  return (
    <div aria-busy={navigation.state === 'loading'}>
      <Layout>{page}</Layout>
    </div>
  );
}
