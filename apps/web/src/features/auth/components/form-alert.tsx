import Alert, { type AlertProps } from '@mui/material/Alert';

/** Form-level message; role=alert makes screen readers read it the moment it appears. */
export function FormAlert({ children, severity = 'error', ...props }: AlertProps) {
  if (!children) return null;
  return (
    <Alert role="alert" severity={severity} sx={{ whiteSpace: 'pre-line', mb: 2 }} {...props}>
      {children}
    </Alert>
  );
}
