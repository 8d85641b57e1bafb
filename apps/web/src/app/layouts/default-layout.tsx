import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AppHeader } from '../../components/header/app-header';
import { paths } from '../../config/paths';

/** Plain HTML styled by styles/shell.css: it frames the landing page, whose first load carries no MUI. */
export function DefaultLayout({
  children,
  minimal = false,
}: {
  children: React.ReactNode;
  minimal?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="shell-layout">
      <a href="#main" className="shell-skip-link">
        {t('nav.skipToContent')}
      </a>
      <AppHeader minimal={minimal} />
      <main id="main" tabIndex={-1} className="shell-main">
        {children}
      </main>
      <footer className="shell-footer">
        <div className="shell-container">
          <p>{t('footer.text')}</p>
          <p className="shell-footer__links">
            <RouterLink to={paths.privacy.to()}>{t('footer.privacy')}</RouterLink>
            <RouterLink to={paths.terms.to()}>{t('footer.terms')}</RouterLink>
          </p>
        </div>
      </footer>
    </div>
  );
}

/** The invitation pages' frame: the same shell without the reporter's menu. */
export function MinimalLayout({ children }: { children: React.ReactNode }) {
  return <DefaultLayout minimal>{children}</DefaultLayout>;
}
