import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { paths } from '../../config/paths';
import { useColorMode } from '../../lib/color-mode';
import { changeLanguage } from '../../lib/i18n';
import { Icon } from '../icons';
import { LogoMark } from './logo';
import { useNavItems } from './nav-items';

// The drawer (MUI's modal machinery) is loaded on first opening; the header itself is plain HTML styled by
// styles/shell.css so the landing page's first load carries no MUI (R-PERF-1, docs/decisions/0001).
const NavDrawer = lazy(() => import('./nav-drawer'));

function ColorModeToggle() {
  const { t } = useTranslation();
  const mode = useColorMode((state) => state.mode);
  const setMode = useColorMode((state) => state.setMode);
  const isDark = mode === 'dark';
  return (
    <button
      type="button"
      className="shell-icon-button"
      aria-label={t('nav.darkMode')}
      aria-pressed={isDark}
      onClick={() => setMode(isDark ? 'light' : 'dark')}
      data-testid="dark-mode-toggle"
    >
      <Icon name={isDark ? 'lightMode' : 'darkMode'} />
    </button>
  );
}

function LanguageToggle() {
  const { t, i18n } = useTranslation();
  const next = i18n.language === 'en' ? 'ko' : 'en';
  return (
    <button
      type="button"
      className="shell-button app-header__language"
      onClick={() => void changeLanguage(next)}
      lang={next}
      aria-label={t('nav.languageSwitch', { lng: next === 'en' ? 'English' : '한국어' })}
    >
      {next === 'en' ? 'English' : '한국어'}
    </button>
  );
}

/** `minimal` leaves out the menu: the invitation pages are for people who are not the platform's members. */
export function AppHeader({ minimal = false }: { minimal?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [drawerLoaded, setDrawerLoaded] = useState(false);
  const items = useNavItems();
  const location = useLocation();
  // The deepest item containing the address is the current one (/manager/stats is 통계, not 관리자 too).
  const matches = (to: string) => location.pathname === to || location.pathname.startsWith(`${to}/`);
  const current = items.filter((item) => matches(item.to)).sort((a, b) => b.to.length - a.to.length)[0]?.to;
  const isCurrent = (to: string) => to === current;

  return (
    <header className="app-header">
      <div className="app-header__bar">
        <RouterLink to={paths.index.to()} aria-label={t('nav.home')} className="app-header__brand">
          <LogoMark />
          <span>{t('app.name')}</span>
        </RouterLink>
        {!minimal && (
          <nav aria-label={t('nav.main')} className="app-header__nav">
            {items.map((item) => (
              <RouterLink
                key={item.to}
                to={item.to}
                className="shell-button"
                aria-current={isCurrent(item.to) ? 'page' : undefined}
              >
                {item.label}
              </RouterLink>
            ))}
          </nav>
        )}
        <LanguageToggle />
        <ColorModeToggle />
        {!minimal && (
          <button
            type="button"
            className="shell-icon-button app-header__menu"
            aria-label={t('nav.openMenu')}
            aria-expanded={open}
            aria-controls="app-drawer"
            onClick={() => {
              setDrawerLoaded(true);
              setOpen(true);
            }}
          >
            <Icon name="menu" />
          </button>
        )}
      </div>
      {drawerLoaded && (
        <Suspense fallback={null}>
          <NavDrawer open={open} onClose={() => setOpen(false)} items={items} isCurrent={isCurrent} />
        </Suspense>
      )}
    </header>
  );
}
