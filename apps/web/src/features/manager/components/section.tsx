import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId } from 'react';

/** One titled block of the case file; the heading names the region for screen-reader navigation. */
export function Section({
  title,
  action,
  children,
  testId,
}: {
  title: string;
  action?: React.ReactNode;
  children: React.ReactNode;
  testId?: string;
}) {
  const headingId = useId();
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      data-testid={testId}
      className="case-section"
      sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}
    >
      <Typography
        variant="h2"
        id={headingId}
        sx={{ fontSize: '1.2rem', mb: 2, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
      >
        <span>{title}</span>
        {action && (
          <span className="no-print" style={{ marginLeft: 'auto' }}>
            {action}
          </span>
        )}
      </Typography>
      {children}
    </Paper>
  );
}

/** A label and its value; empty values show a dash so a missing answer is visibly missing. */
export function Field({ label, children }: { label: string; children: React.ReactNode }) {
  const isEmpty = children === '' || children === null || children === undefined;
  return (
    <div>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, mb: 1.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {isEmpty ? '—' : children}
      </Typography>
    </div>
  );
}

export function Subheading({ children }: { children: React.ReactNode }) {
  return (
    <Typography variant="h3" sx={{ fontSize: '1rem', mt: 2, mb: 1 }}>
      {children}
    </Typography>
  );
}
