import { isCaseManagerRole, isHandlerRole } from '@ansim/shared/constants';
import { useTranslation } from 'react-i18next';
import { paths } from '../../config/paths';
import { useIsLoggedIn } from '../../lib/login-state';
import { useHeaderUser } from './use-header-user';

export interface NavItem {
  to: string;
  label: string;
}

export function useNavItems(): NavItem[] {
  const { t } = useTranslation();
  const isLoggedIn = useIsLoggedIn();
  const user = useHeaderUser();
  // The platform's operator files no report and reads none: the console is all it has.
  const isOperator = isLoggedIn && user?.role === 'operator';
  const items: NavItem[] = isOperator
    ? [{ to: paths.operator.to(), label: t('nav.operator') }]
    : [
        { to: paths.report.to(), label: t('nav.report') },
        { to: paths.dashboard.to(), label: t('nav.myReports') },
      ];
  // The server decides who is a manager; the link is only a convenience and the API enforces the role.
  if (isLoggedIn && isHandlerRole(user?.role))
    items.push({ to: paths.manager.to(), label: t('nav.manager') });
  // Statistics span every case of the company: managers and admins, not investigators (403 on the API).
  if (isLoggedIn && isCaseManagerRole(user?.role))
    items.push({ to: paths.managerStats.to(), label: t('nav.stats') });
  // Only the company's admin runs its settings; the API answers 403 to anyone else.
  if (isLoggedIn && user?.role === 'admin')
    items.push({ to: paths.managerSettings.to(), label: t('nav.settings') });
  items.push(
    isLoggedIn
      ? { to: paths.logout.to(), label: t('nav.logout') }
      : { to: paths.login.to(), label: t('nav.login') },
  );
  return items;
}
