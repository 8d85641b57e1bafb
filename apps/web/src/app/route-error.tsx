import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { useDocumentTitle } from '../components/page-title';
import { DefaultLayout } from './layouts/default-layout';

/** Plain HTML: this view shows when a page chunk failed, so it must not depend on MUI loading. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error('Route failed to render', error);
  useDocumentTitle(t('routeError.title'));
  return (
    <DefaultLayout>
      <div className="shell-container shell-page">
        <h1>{t('routeError.title')}</h1>
        <p>{t('routeError.body')}</p>
        <button
          type="button"
          className="shell-button shell-button--contained"
          onClick={() => window.location.reload()}
        >
          {t('routeError.reload')}
        </button>
      </div>
    </DefaultLayout>
  );
}
