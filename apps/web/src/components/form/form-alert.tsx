import Alert, { type AlertProps } from '@mui/material/Alert';
import { useEffect, useRef } from 'react';

/**
 * Form-level message; role=alert makes screen readers read it the moment it appears, and focus moves to it
 * so keyboard users are not left on the submit button, above nothing that changed for them.
 */
export function FormAlert({ children, severity = 'error', ...props }: AlertProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (children) ref.current?.focus();
  }, [children]);
  if (!children) return null;
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      role="alert"
      severity={severity}
      sx={{ whiteSpace: 'pre-line', mb: 2, '&:focus': { outline: 'none' } }}
      {...props}
    >
      {children}
    </Alert>
  );
}
