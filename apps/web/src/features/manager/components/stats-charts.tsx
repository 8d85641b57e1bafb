import { REPORT_STATUSES, REPORTER_TYPES } from '@ansim/shared/constants';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { PieChart } from '@mui/x-charts/PieChart';
import { useTranslation } from 'react-i18next';
import type { ReportStats } from '../api/types';
import { formatMonth } from '../lib/deadlines';
import { statusLabel, typeLabel } from './labels';
import { visuallyHidden } from './visually-hidden';

interface Datum {
  label: string;
  value: number;
}

/**
 * A chart with its numbers as a table for screen readers: the SVG is a picture to them, the table is the
 * data (WCAG 1.1.1).
 */
function ChartFigure({ title, data, children }: { title: string; data: Datum[]; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" component="figure" sx={{ m: 0, p: 2, minWidth: 0 }}>
      <Typography component="figcaption" variant="h3" sx={{ fontSize: '1rem', mb: 1 }}>
        {title}
      </Typography>
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

/** Loaded on its own (React.lazy) so the chart library never weighs on the table or any other route. */
export default function StatsCharts({ stats }: { stats: ReportStats }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const localeText = { noData: t('manager.stats.noData'), loading: t('common.loading') };
  const months: Datum[] = stats.by_month.map((row) => ({
    label: formatMonth(row.month, i18n.language),
    value: row.count,
  }));
  const statuses: Datum[] = REPORT_STATUSES.map((status) => ({
    label: statusLabel(t, status),
    value: stats.by_status[status] ?? 0,
  }));
  const types: Datum[] = REPORTER_TYPES.map((type) => ({
    label: typeLabel(t, type),
    value: stats.by_type[type] ?? 0,
  }));
  const palette = [
    theme.palette.primary.main,
    theme.palette.warning.main,
    theme.palette.success.main,
    theme.palette.grey[600],
    theme.palette.error.main,
  ];

  return (
    <Box
      component="section"
      aria-label={t('manager.stats.chartsHeading')}
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr 1fr' }, mb: 4 }}
      data-testid="stats-charts"
    >
      <ChartFigure title={t('manager.stats.byMonth')} data={months}>
        <BarChart
          height={240}
          localeText={localeText}
          disableKeyboardNavigation
          xAxis={[{ scaleType: 'band', data: months.map((datum) => datum.label) }]}
          yAxis={[{ tickMinStep: 1, width: 32 }]}
          series={[{ data: months.map((datum) => datum.value), label: t('manager.stats.count') }]}
          colors={[theme.palette.primary.main]}
          hideLegend
          margin={{ left: 4, right: 8, top: 8, bottom: 4 }}
        />
      </ChartFigure>
      <ChartFigure title={t('manager.stats.byStatus')} data={statuses}>
        <BarChart
          height={240}
          layout="horizontal"
          localeText={localeText}
          disableKeyboardNavigation
          yAxis={[{ scaleType: 'band', data: statuses.map((datum) => datum.label), width: 72 }]}
          xAxis={[{ tickMinStep: 1 }]}
          series={[{ data: statuses.map((datum) => datum.value), label: t('manager.stats.count') }]}
          colors={[theme.palette.primary.main]}
          hideLegend
          margin={{ left: 4, right: 12, top: 8, bottom: 4 }}
        />
      </ChartFigure>
      <ChartFigure title={t('manager.stats.byType')} data={types}>
        <PieChart
          height={240}
          localeText={localeText}
          disableKeyboardNavigation
          colors={palette}
          series={[
            {
              data: types.map((datum, index) => ({ id: index, value: datum.value, label: datum.label })),
              innerRadius: 40,
              paddingAngle: 2,
              cornerRadius: 4,
            },
          ]}
          slotProps={{
            legend: { direction: 'horizontal', position: { vertical: 'bottom', horizontal: 'center' } },
          }}
        />
      </ChartFigure>
    </Box>
  );
}
