import type { ReportStatus } from '@ansim/shared/constants';

/**
 * Chips that tell "still open" from "finished" without alarming: nothing here is red, and every pairing keeps
 * AA contrast (MUI's info and warning colours do not with small text, so they are not used).
 */
export const STATUS_CHIPS: Record<
  ReportStatus,
  { color: 'default' | 'primary' | 'success'; variant: 'filled' | 'outlined' }
> = {
  received: { color: 'primary', variant: 'filled' },
  investigating: { color: 'primary', variant: 'outlined' },
  action_taken: { color: 'success', variant: 'filled' },
  closed: { color: 'default', variant: 'filled' },
  dismissed: { color: 'default', variant: 'outlined' },
};
