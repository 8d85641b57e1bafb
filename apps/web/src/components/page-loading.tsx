import { useTranslation } from 'react-i18next';

/** A CSS spinner (styles/shell.css): this shows while the first page chunk loads, so it must cost next to nothing. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="page-loading">
      <div role="progressbar" aria-label={t('common.loading')} className="page-loading__spinner" />
    </div>
  );
}
