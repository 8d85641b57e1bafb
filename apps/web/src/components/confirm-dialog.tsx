import { type ComponentProps, Suspense } from 'react';
import { lazyThemed } from '../lib/lazy-themed';
import { useOpenedOnce } from '../lib/use-opened-once';

// With its theme: it also opens over pages that draw without MUI (the wizard's first step).
const ConfirmDialogBody = lazyThemed(() => import('./confirm-dialog-body').then((module) => module.default));

/**
 * Asks before a change that cannot simply be undone (a new join code, a removed handler, a draft started over).
 * The dialog, and MUI's Modal with it, loads when it first opens, not with the page (docs/requirements.md R-PERF-2).
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
