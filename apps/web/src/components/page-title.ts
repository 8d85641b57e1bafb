import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Kept apart from PageShell (MUI) so the landing page and the error view can use it without loading MUI. */
export function useDocumentTitle(title: string) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = title ? `${title} | ${t('app.name')}` : t('app.name');
  }, [title, t]);
}
