import type { AlertProps } from '@mui/material/Alert';
import { lazy, Suspense } from 'react';

const Alert = lazy(() => import('@mui/material/Alert'));

/**
 * An error alert whose code, MUI's Alert and the IconButton it brings, loads when there is an error to show:
 * on /receipt and /c/{code}, which issue 16 keeps to 150 KB, that is a refused receipt or a failed start.
 */
export function FailureAlert(props: Omit<AlertProps, 'severity' | 'role'>) {
  return (
    <Suspense fallback={null}>
      <Alert severity="error" role="alert" {...props} />
    </Suspense>
  );
}
