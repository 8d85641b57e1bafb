import { type ComponentProps, lazy, Suspense } from 'react';
import { useOpenedOnce } from '../lib/use-opened-once';

const ConfirmDialogBody = lazy(() => import('./confirm-dialog-body'));

/**
 * Asks before a change that cannot simply be undone (a new join code, a removed handler, a draft started over).
 * The dialog, and MUI's Modal with it, loads when it first opens, not with the page (issue 16).
 */
export function ConfirmDialog(props: ComponentProps<typeof ConfirmDialogBody>) {
  const opened = useOpenedOnce(props.open);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialogBody {...props} />
    </Suspense>
  );
}
