import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageShell } from '../components/page-shell';
import { paths } from '../config/paths';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <PageShell title={t('notFound.title')}>
      <Typography sx={{ mb: 3 }}>{t('notFound.body')}</Typography>
      <Button variant="contained" component={Link} to={paths.index.to()}>
        {t('notFound.home')}
      </Button>
    </PageShell>
  );
}
