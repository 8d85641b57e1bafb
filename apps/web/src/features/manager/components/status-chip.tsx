import type { ReportStatus } from '@ansim/shared/constants';
import Chip, { type ChipProps } from '@mui/material/Chip';
import { darken, lighten, type Theme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { statusLabel } from './labels';

const STATUS_COLORS: Record<ReportStatus, ChipProps['color']> = {
  received: 'info',
  investigating: 'warning',
  action_taken: 'success',
  closed: 'default',
  dismissed: 'default',
};

type Tone = 'info' | 'warning' | 'success' | 'error' | 'primary';

/**
 * Text colour for an outlined chip: the palette's main shades of info and warning fall below 4.5:1 on white
 * as small text (warning's dark shade too), so a shade past dark is used in light mode and past light in dark mode.
 */
export const outlinedTone = (tone: Tone) => (theme: Theme) => {
  const shade =
    theme.palette.mode === 'light'
      ? darken(theme.palette[tone].dark, 0.15)
      : lighten(theme.palette[tone].light, 0.15);
  return { color: shade, borderColor: shade };
};

export function StatusChip({ status, size = 'small' }: { status: ReportStatus; size?: ChipProps['size'] }) {
  const { t } = useTranslation();
  const color = STATUS_COLORS[status] ?? 'default';
  return (
    <Chip
      label={statusLabel(t, status)}
      color={color}
      size={size}
      variant="outlined"
      sx={color && color !== 'default' ? outlinedTone(color as Tone) : undefined}
      data-testid="status-chip"
    />
  );
}

/** Deadline flags of a case (ack within 7 days, feedback within 3 months); nothing when none is missed. */
export function OverdueChips({ ack, feedback }: { ack: boolean; feedback: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      {ack && <Chip label={t('manager.deadline.ackOverdue')} color="error" size="small" />}
      {feedback && <Chip label={t('manager.deadline.feedbackOverdue')} color="error" size="small" />}
    </>
  );
}

/** The case is assigned to the person reading the list. */
export function AssignedToMeChip() {
  const { t } = useTranslation();
  return <Chip label={t('manager.assignees.mine')} color="primary" size="small" variant="outlined" />;
}
