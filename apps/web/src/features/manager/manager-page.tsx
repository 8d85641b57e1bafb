import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useCallback, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigation, useSearchParams } from 'react-router';
import { PageShell } from '../../components/page-shell';
import { paths } from '../../config/paths';
import { isRequestError } from '../../lib/request-error';
import { useManagerReports } from './api/list-reports';
import { useReportStats } from './api/report-stats';
import { ManagerGate, ManagerOnly } from './components/manager-gate';
import { ReportsFilterBar } from './components/reports-filter-bar';
import { ReportsTable } from './components/reports-table';
import { StatsCards } from './components/stats-cards';
import {
  EMPTY_FILTERS,
  filtersFromSearch,
  filtersToSearch,
  type ManagerFilters,
  updateFilters,
} from './lib/filters';
import { useManagerAccess } from './use-manager-access';

// The chart library is the heaviest part of this page; it loads after the cards and the table can show.
const StatsCharts = lazy(() => import('./components/stats-charts'));

function ChartsFallback() {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr 1fr' }, mb: 4 }}>
      <Skeleton variant="rounded" height={300} />
      <Skeleton variant="rounded" height={300} />
      <Skeleton variant="rounded" height={300} />
    </Box>
  );
}

function ManagerConsole() {
  const { t } = useTranslation();
  const { user } = useManagerAccess();
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(searchParams), [searchParams]);
  const stats = useReportStats();
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

  if (isRequestError(stats.error, 'FORBIDDEN') || isRequestError(reports.error, 'FORBIDDEN')) {
    return <ManagerOnly />;
  }

  return (
    <PageShell
      title={t('manager.title')}
      subtitle={user?.company ? t('manager.subtitle', { company: user.company.name }) : undefined}
      maxWidth="lg"
    >
      <Typography variant="h2" sx={{ mb: 2 }}>
        {t('manager.stats.heading')}
      </Typography>
      {stats.error && !isRequestError(stats.error, 'FORBIDDEN') && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {stats.error.message}
        </Alert>
      )}
      <StatsCards stats={stats.data} />
      {stats.data ? (
        <Suspense fallback={<ChartsFallback />}>
          <StatsCharts stats={stats.data} />
        </Suspense>
      ) : (
        !stats.error && <ChartsFallback />
      )}
      <Typography variant="h2" sx={{ mb: 2 }}>
        {t('manager.list.heading')}
      </Typography>
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
