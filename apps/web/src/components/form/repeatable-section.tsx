import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { fieldId, useFieldError } from './step-errors';
import './form-copy';

interface RepeatableSectionProps {
  /** The list's path in the form, e.g. `acts`, for its own error and for focus. */
  path: string;
  count: number;
  max: number;
  itemTitle: (index: number) => string;
  addLabel: string;
  emptyText: string;
  /** The field to focus in a newly added item, so keyboard users land where they type next. */
  firstFieldPath: (index: number) => string;
  onAdd: () => void;
  onRemove: (index: number) => void;
  renderItem: (index: number) => React.ReactNode;
}

/**
 * A list of entries a person can add to and remove from: the reporter's acts, harms, concerns and witnesses,
 * the accused person's witnesses.
 */
export function RepeatableSection({
  path,
  count,
  max,
  itemTitle,
  addLabel,
  emptyText,
  firstFieldPath,
  onAdd,
  onRemove,
  renderItem,
}: RepeatableSectionProps) {
  const { t } = useTranslation();
  const error = useFieldError(path);
  const add = () => {
    onAdd();
    // The new entry renders on the next frame; focus then moves into it.
    requestAnimationFrame(() => document.getElementById(fieldId(firstFieldPath(count)))?.focus());
  };
  return (
    <Stack spacing={2} id={fieldId(path)} tabIndex={-1} sx={{ outline: 'none' }}>
      {error && (
        <Alert severity="error" variant="outlined">
          {error}
        </Alert>
      )}
      {count === 0 && <Typography color="text.secondary">{emptyText}</Typography>}
      {Array.from({ length: count }, (_, index) => (
        <Paper
          // Entries have no id of their own; the index is their identity in the stored list.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above.
          key={index}
          variant="outlined"
          component="fieldset"
          sx={{ p: { xs: 2, sm: 3 }, m: 0, minWidth: 0 }}
        >
          <Box
            component="legend"
            sx={{ px: 1, ml: -1, fontWeight: 700, fontSize: '1rem', color: 'text.primary' }}
          >
            {itemTitle(index)}
          </Box>
          <Stack spacing={2.5}>{renderItem(index)}</Stack>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
            <Button
              color="inherit"
              startIcon={<DeleteOutlineIcon aria-hidden="true" />}
              onClick={() => onRemove(index)}
              aria-label={t('form.list.removeNamed', { item: itemTitle(index) })}
            >
              {t('form.list.remove')}
            </Button>
          </Box>
        </Paper>
      ))}
      <Box>
        <Button
          variant="outlined"
          startIcon={<AddIcon aria-hidden="true" />}
          onClick={add}
          disabled={count >= max}
        >
          {addLabel}
        </Button>
        {count >= max && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('form.list.max', { max })}
          </Typography>
        )}
      </Box>
    </Stack>
  );
}
