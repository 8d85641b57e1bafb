import { REPORT_STATUSES, REPORTER_TYPES } from '@ansim/shared/constants';
import type { ReportStats } from '@ansim/shared/contract/manager';
import { CASE_ACTIONS, CASE_FINDINGS } from '@ansim/shared/outcomes';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Fragment, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../components/visually-hidden';
import { relationshipLabel, statusLabel, typeLabel } from './labels';

interface Datum {
  label: string;
  value: number;
}

/**
 * A chart with its numbers as a table for screen readers: the SVG is a picture to them, the table is the
 * data (WCAG 1.1.1). The bars carry their values, so sighted readers need no axis to read them.
 */
function ChartFigure({
  title,
  hint,
  data,
  wide,
  children,
}: {
  title: string;
  hint?: string;
  data: Datum[];
  wide?: boolean;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Paper
      variant="outlined"
      component="figure"
      sx={{ m: 0, p: 2, minWidth: 0, gridColumn: wide ? { md: '1 / -1' } : undefined }}
    >
      <Typography component="figcaption" variant="h3" sx={{ fontSize: '1rem', mb: hint ? 0 : 1 }}>
        {title}
      </Typography>
      {hint && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {hint}
        </Typography>
      )}
      {/* Keyboard navigation of the SVG is off: the table below carries the same numbers for assistive tech. */}
      <Box aria-hidden="true">{children}</Box>
      <Box component="table" sx={visuallyHidden}>
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{t('manager.stats.category')}</th>
            <th scope="col">{t('manager.stats.count')}</th>
          </tr>
        </thead>
        <tbody>
          {data.map((datum) => (
            <tr key={datum.label}>
              <th scope="row">{datum.label}</th>
              <td>{datum.value}</td>
            </tr>
          ))}
        </tbody>
      </Box>
    </Paper>
  );
}

/** Horizontal bars, one per category, each with its count beside it; plain HTML, so the values always show. */
function CategoryBars({ data, empty }: { data: Datum[]; empty?: string }) {
  const { t } = useTranslation();
  const max = Math.max(0, ...data.map((datum) => datum.value));
  if (data.length === 0 || max === 0)
    return (
      <Typography variant="body2" color="text.secondary" sx={{ py: 2 }}>
        {empty ?? t('manager.stats.noData')}
      </Typography>
    );
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: 'minmax(64px, max-content) 1fr',
        columnGap: 1.5,
        rowGap: 0.75,
        alignItems: 'center',
      }}
    >
      {data.map((datum) => (
        <Fragment key={datum.label}>
          <Typography variant="body2" sx={{ textAlign: 'right', overflowWrap: 'anywhere' }}>
            {datum.label}
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
            <Box
              sx={{
                height: 20,
                width: `${(datum.value / max) * 85}%`,
                minWidth: datum.value > 0 ? 3 : 0,
                bgcolor: 'primary.main',
                borderRadius: 0.5,
              }}
            />
            <Typography variant="body2" sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}>
              {datum.value}
            </Typography>
          </Box>
        </Fragment>
      ))}
    </Box>
  );
}

/**
 * One column per month with its count above it; plain HTML like the bars. Months are labelled by number, the
 * year under the first month and every January; a long range scrolls sideways and opens on its latest month.
 */
function MonthColumns({ months }: { months: { month: string; value: number }[] }) {
  const { i18n } = useTranslation();
  // "12월" in Korean, "Dec" in English.
  const monthName = new Intl.DateTimeFormat(i18n.language === 'en' ? 'en' : 'ko', {
    month: 'short',
    timeZone: 'UTC',
  });
  const max = Math.max(1, ...months.map((datum) => datum.value));
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = scroller.current;
    if (element) element.scrollLeft = element.scrollWidth;
  }, []);
  const columns = `repeat(${months.length}, minmax(20px, 1fr))`;
  const minWidth = months.length * 24;
  return (
    <Box ref={scroller} sx={{ overflowX: 'auto' }}>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: columns,
          gap: 0.5,
          alignItems: 'end',
          height: 190,
          minWidth,
        }}
      >
        {months.map((datum) => (
          <Box
            key={datum.month}
            sx={{
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              justifyContent: 'flex-end',
              height: '100%',
            }}
          >
            <Typography variant="caption" sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}>
              {datum.value}
            </Typography>
            <Box
              sx={{
                width: '70%',
                height: `${(datum.value / max) * 150}px`,
                minHeight: datum.value > 0 ? 3 : 0,
                bgcolor: 'primary.main',
                borderRadius: '4px 4px 0 0',
              }}
            />
          </Box>
        ))}
      </Box>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: columns,
          gap: 0.5,
          borderTop: 1,
          borderColor: 'divider',
          pt: 0.5,
          minWidth,
        }}
      >
        {months.map((datum, index) => {
          const [year, month] = datum.month.split('-');
          return (
            <Typography
              key={datum.month}
              variant="caption"
              color="text.secondary"
              sx={{ textAlign: 'center', lineHeight: 1.3 }}
            >
              {monthName.format(new Date(Date.UTC(Number(year), Number(month) - 1, 1)))}
              {(index === 0 || month === '01') && (
                <Box component="span" sx={{ display: 'block', fontSize: '0.65rem', whiteSpace: 'nowrap' }}>
                  {`’${year!.slice(2)}`}
                </Box>
              )}
            </Typography>
          );
        })}
      </Box>
    </Box>
  );
}

/** Loaded on its own (React.lazy), after the headline numbers. */
export default function StatsCharts({ stats }: { stats: ReportStats }) {
  const { t, i18n } = useTranslation();
  const notGiven = t('manager.stats.notGiven');
  // The table spells the month out for screen readers: "2025년 12월", "December 2025".
  const monthLabel = new Intl.DateTimeFormat(i18n.language === 'en' ? 'en' : 'ko', {
    year: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  });
  const months: Datum[] = stats.by_month.map((row) => ({
    label: monthLabel.format(new Date(`${row.month}-01T00:00:00Z`)),
    value: row.count,
  }));
  const statuses: Datum[] = REPORT_STATUSES.map((status) => ({
    label: statusLabel(t, status),
    value: stats.by_status[status],
  }));
  const types: Datum[] = REPORTER_TYPES.map((type) => ({
    label: typeLabel(t, type),
    value: stats.by_type[type],
  }));
  const findings: Datum[] = [...CASE_FINDINGS, 'none' as const].map((finding) => ({
    label: t(`manager.stats.finding.${finding}`),
    value: stats.by_finding[finding],
  }));
  const actions: Datum[] = CASE_ACTIONS.map((action) => ({
    label: t(`manager.stats.action.${action}`),
    value: stats.by_action[action],
  }));
  const departments: Datum[] = stats.by_department.map((row) => ({
    label: row.value || notGiven,
    value: row.count,
  }));
  const relationships: Datum[] = stats.by_relationship.map((row) => ({
    label: relationshipLabel(t, row.value) || notGiven,
    value: row.count,
  }));

  return (
    <Box
      component="section"
      aria-label={t('manager.stats.chartsHeading')}
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, mb: 4 }}
      data-testid="stats-charts"
    >
      <ChartFigure title={t('manager.stats.byMonth')} data={months} wide>
        <MonthColumns months={stats.by_month.map((row) => ({ month: row.month, value: row.count }))} />
      </ChartFigure>
      <ChartFigure title={t('manager.stats.byStatus')} data={statuses}>
        <CategoryBars data={statuses} />
      </ChartFigure>
      <ChartFigure title={t('manager.stats.byType')} data={types}>
        <CategoryBars data={types} />
      </ChartFigure>
      <ChartFigure title={t('manager.stats.byFinding')} data={findings}>
        <CategoryBars data={findings} />
      </ChartFigure>
      <ChartFigure title={t('manager.stats.byAction')} hint={t('manager.stats.byActionHint')} data={actions}>
        <CategoryBars data={actions} empty={t('manager.stats.noActions')} />
      </ChartFigure>
      <ChartFigure title={t('manager.stats.byDepartment')} data={departments}>
        <CategoryBars data={departments} />
      </ChartFigure>
      <ChartFigure title={t('manager.stats.byRelationship')} data={relationships}>
        <CategoryBars data={relationships} />
      </ChartFigure>
    </Box>
  );
}
