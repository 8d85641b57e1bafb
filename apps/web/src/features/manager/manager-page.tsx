import { isCaseManagerRole } from '@ansim/shared/constants';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useCallback, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigation, useSearchParams } from 'react-router';
import { ManagerGate, ManagerOnly } from '../../components/manager-gate';
import { PageShell } from '../../components/page-shell';
import { paths } from '../../config/paths';
import { useManagerAccess } from '../../hooks/use-manager-access';
import { isRequestError } from '../../lib/request-error';
import { useManagerReports } from './api/list-reports';
import { ReportsFilterBar } from './components/reports-filter-bar';
import { ReportsTable } from './components/reports-table';
import {
  EMPTY_FILTERS,
  filtersFromSearch,
  filtersToSearch,
  type ManagerFilters,
  updateFilters,
} from './lib/filters';

function ManagerConsole() {
  const { t } = useTranslation();
  const { user } = useManagerAccess();
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(searchParams), [searchParams]);
  const reports = useManagerReports(filters);
  const navigation = useNavigation();
  const pendingPath = useRef<string | undefined>(undefined);
  pendingPath.current = navigation.location?.pathname;

  const onChange = useCallback(
    (change: Partial<ManagerFilters>) => {
      // A debounced search can fire while a click on a case is already navigating away (the case page is
      // loaded lazily, so the address has not changed yet); a filter navigation then would cancel the click.
      if (pendingPath.current !== undefined && pendingPath.current !== paths.manager.to()) return;
      setSearchParams((current) => filtersToSearch(updateFilters(filtersFromSearch(current), change)), {
        replace: !('page' in change),
      });
    },
    [setSearchParams],
  );
  const onReset = useCallback(() => setSearchParams(filtersToSearch(EMPTY_FILTERS)), [setSearchParams]);

  if (isRequestError(reports.error, 'FORBIDDEN')) {
    return <ManagerOnly />;
  }

  return (
    <PageShell
      title={t('manager.title')}
      subtitle={user?.company ? t('manager.subtitle', { company: user.company.name }) : undefined}
      maxWidth="lg"
    >
      {/* The cases come first, on phones too; the statistics have their own page (docs/requirements.md R-STAT-2). */}
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 2,
          mb: 2,
          flexWrap: 'wrap',
        }}
      >
        <Typography variant="h2">{t('manager.list.heading')}</Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {isCaseManagerRole(user?.role) && (
            <Button component={RouterLink} to={paths.managerStats.to()} variant="outlined" size="small">
              {t('manager.stats.link')}
            </Button>
          )}
          {user?.role === 'admin' && (
            <Button
              component={RouterLink}
              to={paths.managerSettings.to()}
              variant="outlined"
              size="small"
              data-testid="settings-link"
            >
              {t('nav.settings')}
            </Button>
          )}
        </Box>
      </Box>
      <ReportsFilterBar filters={filters} onChange={onChange} onReset={onReset} />
      {reports.error ? (
        <Alert severity="error">{reports.error.message}</Alert>
      ) : (
        <ReportsTable
          data={reports.data}
          isLoading={reports.isPending}
          filters={filters}
          onChange={onChange}
        />
      )}
    </PageShell>
  );
}

export default function ManagerPage() {
  return (
    <ManagerGate>
      <ManagerConsole />
    </ManagerGate>
  );
}
