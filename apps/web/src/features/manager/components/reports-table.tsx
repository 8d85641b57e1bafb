import type { ManagerListPage, ManagerListRow } from '@ansim/shared/contract/manager';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { TextInput } from '../../../components/text-input';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/datetime';
import {
  type ManagerFilters,
  nextSort,
  PAGE_SIZE,
  pageFromLink,
  SORT_KEYS,
  type SortColumn,
  type SortKey,
  sortDirection,
} from '../lib/filters';
import { typeLabel } from './labels';
import { AssignedToMeChip, OverdueChips, StatusChip } from './status-chip';

interface Props {
  data: ManagerListPage | undefined;
  isLoading: boolean;
  filters: ManagerFilters;
  onChange: (change: Partial<ManagerFilters>) => void;
}

function SortHeader({
  column,
  label,
  filters,
  onChange,
}: {
  column: SortColumn;
  label: string;
  filters: ManagerFilters;
  onChange: Props['onChange'];
}) {
  const direction = sortDirection(filters.sort, column);
  return (
    <TableCell sortDirection={direction}>
      <TableSortLabel
        active={direction !== false}
        direction={direction || 'asc'}
        onClick={() => onChange({ sort: nextSort(filters.sort, column) })}
      >
        {label}
      </TableSortLabel>
    </TableCell>
  );
}

function RowCards({ rows }: { rows: ManagerListRow[] }) {
  const { t, i18n } = useTranslation();
  return (
    <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
      {rows.map((row) => (
        <Card component="li" variant="outlined" key={row.id} data-testid="report-row">
          <CardActionArea component={RouterLink} to={paths.managerDetail.to(row.id)}>
            <CardContent>
              <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, mb: 1 }}>
                <Typography component="span" sx={{ fontWeight: 700 }}>
                  {row.case_number}
                </Typography>
                <StatusChip status={row.status} />
              </Box>
              <Typography variant="body2" color="text.secondary">
                {typeLabel(t, row.report_type)} · {t('manager.list.accused')}:{' '}
                {row.accused_name || t('manager.list.noAccused')}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('manager.list.createdAt')} {formatDate(row.created_at, i18n.language)} ·{' '}
                {t('manager.list.feedbackDue')} {formatDate(row.feedback_due_at, i18n.language)}
              </Typography>
              <Box sx={{ display: 'flex', gap: 0.5, mt: 1, flexWrap: 'wrap' }}>
                <OverdueChips ack={row.is_ack_overdue} feedback={row.is_feedback_overdue} />
                {row.is_assigned_to_me && <AssignedToMeChip />}
              </Box>
            </CardContent>
          </CardActionArea>
        </Card>
      ))}
    </Box>
  );
}

function RowTable({
  rows,
  filters,
  onChange,
}: { rows: ManagerListRow[] } & Omit<Props, 'data' | 'isLoading'>) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={t('manager.list.tableLabel')}>
        <TableHead>
          <TableRow>
            <SortHeader
              column="case_number"
              label={t('manager.list.caseNumber')}
              filters={filters}
              onChange={onChange}
            />
            <TableCell>{t('manager.list.type')}</TableCell>
            <TableCell>{t('manager.list.status')}</TableCell>
            <TableCell>{t('manager.list.accused')}</TableCell>
            <SortHeader
              column="created_at"
              label={t('manager.list.createdAt')}
              filters={filters}
              onChange={onChange}
            />
            <SortHeader
              column="updated_at"
              label={t('manager.list.updatedAt')}
              filters={filters}
              onChange={onChange}
            />
            <SortHeader
              column="feedback_due_at"
              label={t('manager.list.feedbackDue')}
              filters={filters}
              onChange={onChange}
            />
            <TableCell>{t('manager.list.deadlines')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow
              key={row.id}
              hover
              data-testid="report-row"
              // The case number is the keyboard and screen-reader target; the whole row is a mouse shortcut.
              onClick={() => navigate(paths.managerDetail.to(row.id))}
              sx={{ cursor: 'pointer' }}
            >
              <TableCell>
                <Link component={RouterLink} to={paths.managerDetail.to(row.id)} sx={{ fontWeight: 700 }}>
                  {row.case_number}
                </Link>
              </TableCell>
              <TableCell>{typeLabel(t, row.report_type)}</TableCell>
              <TableCell>
                <StatusChip status={row.status} />
              </TableCell>
              <TableCell>{row.accused_name || t('manager.list.noAccused')}</TableCell>
              <TableCell>{formatDate(row.created_at, i18n.language)}</TableCell>
              <TableCell>{formatDate(row.updated_at, i18n.language)}</TableCell>
              <TableCell>{formatDate(row.feedback_due_at, i18n.language)}</TableCell>
              <TableCell>
                <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                  <OverdueChips ack={row.is_ack_overdue} feedback={row.is_feedback_overdue} />
                  {row.is_assigned_to_me && <AssignedToMeChip />}
                </Box>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export function ReportsTable({ data, isLoading, filters, onChange }: Props) {
  const { t } = useTranslation();
  const theme = useTheme();
  const isNarrow = useMediaQuery(theme.breakpoints.down('md'));

  if (isLoading && !data) {
    return (
      <Box aria-busy="true" aria-label={t('common.loading')} sx={{ display: 'grid', gap: 1 }}>
        {Array.from({ length: 6 }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders with no identity.
          <Skeleton key={index} variant="rounded" height={isNarrow ? 104 : 40} />
        ))}
      </Box>
    );
  }
  if (!data || data.results.length === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }} data-testid="reports-empty">
        <Typography component="p" sx={{ fontWeight: 700, mb: 1 }}>
          {t('manager.list.emptyTitle')}
        </Typography>
        <Typography color="text.secondary">{t('manager.list.emptyBody')}</Typography>
      </Paper>
    );
  }
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary" aria-live="polite" data-testid="reports-count">
          {t(data.count_exact ? 'manager.list.count' : 'manager.list.countEstimated', { count: data.count })}
        </Typography>
        {/* A long list shows the planner's estimate; counting every match is the slow query, run on request. */}
        {!data.count_exact && (
          <Button size="small" onClick={() => onChange({ countExact: true })}>
            {t('manager.list.countExactly')}
          </Button>
        )}
      </Box>
      {isNarrow ? (
        <>
          <TextInput
            fullWidth={false}
            id="manager-sort"
            select
            size="small"
            label={t('manager.list.sort')}
            value={filters.sort}
            onChange={(event) => onChange({ sort: event.target.value as SortKey })}
            sx={{ mb: 1.5 }}
          >
            {SORT_KEYS.map((key) => (
              <option key={key} value={key}>
                {t(`manager.list.sorts.${key}`)}
              </option>
            ))}
          </TextInput>
          <RowCards rows={data.results} />
        </>
      ) : (
        <RowTable rows={data.results} filters={filters} onChange={onChange} />
      )}
      <ListPager
        count={data.count}
        countExact={data.count_exact}
        page={filters.page}
        // Each step follows the API's link, whose cursor makes the page a read of an index, not an OFFSET.
        onStep={(step) => {
          const link = step > 0 ? data.next : data.previous;
          onChange(link ? pageFromLink(link) : { page: filters.page + step, after: '', before: '' });
        }}
      />
    </>
  );
}

/**
 * The count and the two steps of TablePagination, without it: its rows-per-page Select, hidden here, still
 * brought MUI's Select, Menu, Popover and Modal to the list page (docs/requirements.md R-PERF-2).
 */
function ListPager({
  count,
  countExact,
  page,
  onStep,
}: {
  count: number;
  countExact: boolean;
  page: number;
  onStep: (step: -1 | 1) => void;
}) {
  const { t } = useTranslation();
  const from = count === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const to = Math.min(count, page * PAGE_SIZE);
  return (
    <Box
      sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 1, minHeight: 52, px: 1 }}
    >
      <Typography variant="body2" aria-live="polite">
        {t(countExact ? 'manager.list.pageRange' : 'manager.list.pageRangeEstimated', { from, to, count })}
      </Typography>
      <IconButton aria-label={t('manager.list.previousPage')} disabled={page <= 1} onClick={() => onStep(-1)}>
        <ChevronLeftIcon />
      </IconButton>
      <IconButton
        aria-label={t('manager.list.nextPage')}
        disabled={page >= Math.ceil(count / PAGE_SIZE)}
        onClick={() => onStep(1)}
      >
        <ChevronRightIcon />
      </IconButton>
    </Box>
  );
}
