import { isCaseManagerRole } from '@ansim/shared/constants';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { ManagerGate, ManagerOnly } from '../../components/manager-gate';
import { PageShell } from '../../components/page-shell';
import { TextInput } from '../../components/text-input';
import { paths } from '../../config/paths';
import { useManagerAccess } from '../../hooks/use-manager-access';
import { isRequestError } from '../../lib/request-error';
import { useReportStats } from './api/report-stats';
import { StatsCards } from './components/stats-cards';

// The charts load after the headline numbers can show, in their own chunk.
const StatsCharts = lazy(() => import('./components/stats-charts'));

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/u;
const validMonth = (value: string | null) => (value && MONTH.test(value) ? value : undefined);

/** The current month in Korea's time zone, as the API counts months. */
const seoulMonth = (offsetMonths = 0) => {
  const now = new Date(Date.now() + 9 * 3600 * 1000);
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offsetMonths, 1));
  return date.toISOString().slice(0, 7);
};

/** Ten years back is longer than any company keeps a closed case (retention), so every counted month is there. */
const MONTHS_OFFERED = 120;

/**
 * A month picked from a list written in the page's language ("2026년 11월", "November 2026"); a native month
 * input would write it in the browser's locale instead, whatever language the page is in.
 */
function MonthSelect({
  label,
  value,
  onChange,
  error,
  helperText,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: boolean;
  helperText?: string;
}) {
  const { i18n } = useTranslation();
  const name = new Intl.DateTimeFormat(i18n.language === 'en' ? 'en' : 'ko', {
    year: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  });
  const months = Array.from({ length: MONTHS_OFFERED }, (_, index) => seoulMonth(-index));
  if (value && !months.includes(value)) months.push(value);
  return (
    <TextInput
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ inputLabel: { shrink: true } }}
      error={error}
      helperText={helperText}
      sx={{ width: { xs: 'calc(50% - 6px)', sm: 180 } }}
    >
      {months.map((month) => (
        <option key={month} value={month}>
          {name.format(new Date(`${month}-01T00:00:00Z`))}
        </option>
      ))}
    </TextInput>
  );
}

function ChartsFallback() {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, mb: 4 }}>
      <Skeleton variant="rounded" height={300} sx={{ gridColumn: { md: '1 / -1' } }} />
      <Skeleton variant="rounded" height={240} />
      <Skeleton variant="rounded" height={240} />
    </Box>
  );
}

/** The month range: two month fields, applied together, with the two common ranges one click away. */
function RangeForm({
  from,
  to,
  onApply,
}: {
  from: string;
  to: string;
  onApply: (range: { from: string; to: string }) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({ from, to });
  const invalid = Boolean(draft.from && draft.to && draft.from > draft.to);
  return (
    <Box
      component="form"
      aria-label={t('manager.stats.range')}
      onSubmit={(event) => {
        event.preventDefault();
        if (!invalid && validMonth(draft.from) && validMonth(draft.to)) onApply(draft);
      }}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start', mb: 3 }}
    >
      <MonthSelect
        label={t('manager.stats.dateFrom')}
        value={draft.from}
        onChange={(month) => setDraft({ ...draft, from: month })}
        error={invalid}
        helperText={invalid ? t('manager.stats.rangeInvalid') : undefined}
      />
      <MonthSelect
        label={t('manager.stats.dateTo')}
        value={draft.to}
        onChange={(month) => setDraft({ ...draft, to: month })}
      />
      <Button type="submit" variant="contained" disabled={invalid}>
        {t('manager.stats.apply')}
      </Button>
      <Button
        variant="text"
        onClick={() => {
          const range = { from: seoulMonth(-11), to: seoulMonth() };
          setDraft(range);
          onApply(range);
        }}
      >
        {t('manager.stats.last12')}
      </Button>
      <Button
        variant="text"
        onClick={() => {
          const to = seoulMonth();
          const range = { from: `${to.slice(0, 4)}-01`, to };
          setDraft(range);
          onApply(range);
        }}
      >
        {t('manager.stats.thisYear')}
      </Button>
    </Box>
  );
}

function StatsConsole() {
  const { t } = useTranslation();
  const { user } = useManagerAccess();
  const [searchParams, setSearchParams] = useSearchParams();
  const range = { from: validMonth(searchParams.get('from')), to: validMonth(searchParams.get('to')) };
  const stats = useReportStats(range);

  if (!isCaseManagerRole(user?.role) || isRequestError(stats.error, 'FORBIDDEN')) return <ManagerOnly />;

  return (
    <PageShell
      title={t('manager.stats.heading')}
      subtitle={user?.company ? t('manager.stats.subtitle', { company: user.company.name }) : undefined}
      maxWidth="lg"
    >
      <Button component={RouterLink} to={paths.manager.to()} size="small" sx={{ mb: 2 }}>
        {t('manager.stats.backToList')}
      </Button>
      <RangeForm
        // A new range from the address (back button) starts the fields afresh.
        key={`${range.from ?? stats.data?.date_from ?? ''}:${range.to ?? stats.data?.date_to ?? ''}`}
        from={range.from ?? stats.data?.date_from ?? ''}
        to={range.to ?? stats.data?.date_to ?? ''}
        onApply={(next) => setSearchParams({ from: next.from, to: next.to })}
      />
      {stats.error && (
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
    </PageShell>
  );
}

export default function ManagerStatsPage() {
  return (
    <ManagerGate>
      <StatsConsole />
    </ManagerGate>
  );
}
