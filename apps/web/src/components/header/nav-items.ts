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
  const items: NavItem[] = [
    { to: paths.report.to(), label: t('nav.report') },
    { to: paths.dashboard.to(), label: t('nav.myReports') },
  ];
  // The server decides who is a manager; the link is only a convenience and the API enforces the role.
  if (isLoggedIn && user?.role === 'manager') items.push({ to: paths.manager.to(), label: t('nav.manager') });
  items.push(
    isLoggedIn
      ? { to: paths.logout.to(), label: t('nav.logout') }
      : { to: paths.login.to(), label: t('nav.login') },
  );
  return items;
}
