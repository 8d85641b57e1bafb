import { REPORT_STATUSES, REPORTER_TYPES } from '@ansim/shared/constants';
import DownloadIcon from '@mui/icons-material/Download';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import Switch from '@mui/material/Switch';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../components/date-field/date-field';
import { TextInput } from '../../../components/text-input';
import { exportCsvUrl } from '../api/export-csv';
import { hasActiveFilters, type ManagerFilters } from '../lib/filters';
import { statusLabel, typeLabel } from './labels';

const SEARCH_DELAY_MS = 300;

interface Props {
  filters: ManagerFilters;
  onChange: (change: Partial<ManagerFilters>) => void;
  onReset: () => void;
}

export function ReportsFilterBar({ filters, onChange, onReset }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState(filters.q);

  // Typing updates the address (and so the query) once the manager pauses, not on every key.
  useEffect(() => {
    if (search === filters.q) return;
    const timer = setTimeout(() => onChange({ q: search }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, filters.q, onChange]);

  // A reset or a back navigation changes the filters from outside; the box follows.
  useEffect(() => setSearch(filters.q), [filters.q]);

  return (
    <Box
      component="form"
      role="search"
      aria-label={t('manager.filters.label')}
      onSubmit={(event) => {
        event.preventDefault();
        onChange({ q: search });
      }}
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '2fr 1fr 1fr 1fr 1fr' },
        alignItems: 'center',
        mb: 2,
      }}
    >
      <TextInput
        fullWidth={false}
        id="manager-filter-q"
        label={t('manager.filters.search')}
        placeholder={t('manager.filters.searchPlaceholder')}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        size="small"
        type="search"
        slotProps={{
          htmlInput: { maxLength: 100 },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      <TextInput
        fullWidth={false}
        id="manager-filter-status"
        select
        label={t('manager.filters.status')}
        value={filters.status}
        onChange={(event) => onChange({ status: event.target.value as ManagerFilters['status'] })}
        size="small"
      >
        <option value="">{t('manager.filters.all')}</option>
        {REPORT_STATUSES.map((status) => (
          <option key={status} value={status}>
            {statusLabel(t, status)}
          </option>
        ))}
      </TextInput>
      <TextInput
        fullWidth={false}
        id="manager-filter-type"
        select
        label={t('manager.filters.type')}
        value={filters.type}
        onChange={(event) => onChange({ type: event.target.value as ManagerFilters['type'] })}
        size="small"
      >
        <option value="">{t('manager.filters.all')}</option>
        {REPORTER_TYPES.map((type) => (
          <option key={type} value={type}>
            {typeLabel(t, type)}
          </option>
        ))}
      </TextInput>
      <DateField
        id="manager-filter-from"
        label={t('manager.filters.dateFrom')}
        value={filters.date_from}
        onChange={(date_from) => onChange({ date_from })}
        max={filters.date_to || undefined}
      />
      <DateField
        id="manager-filter-to"
        label={t('manager.filters.dateTo')}
        value={filters.date_to}
        onChange={(date_to) => onChange({ date_to })}
        min={filters.date_from || undefined}
      />
      <Box
        sx={{
          gridColumn: '1 / -1',
          display: 'flex',
          flexWrap: 'wrap',
          gap: 1,
          alignItems: 'center',
          justifyContent: 'space-between',
        }}
      >
        <FormControlLabel
          control={
            <Switch
              checked={filters.overdue}
              onChange={(event) => onChange({ overdue: event.target.checked })}
            />
          }
          label={t('manager.filters.overdue')}
        />
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {hasActiveFilters(filters) && (
            <Button onClick={onReset} variant="text">
              {t('manager.filters.reset')}
            </Button>
          )}
          <Button
            component="a"
            href={exportCsvUrl(filters)}
            download
            variant="outlined"
            startIcon={<DownloadIcon />}
            data-testid="csv-download"
          >
            {t('manager.filters.csv')}
          </Button>
        </Box>
      </Box>
    </Box>
  );
}
