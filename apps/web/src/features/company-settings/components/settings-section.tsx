import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId } from 'react';

/** One titled block of a settings tab; the heading names the region for screen-reader navigation. */
export function SettingsSection({
  title,
  intro,
  children,
  testId,
}: {
  title: string;
  intro?: string;
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
      sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}
    >
      <Typography variant="h2" id={headingId} sx={{ fontSize: '1.2rem', mb: intro ? 1 : 2 }}>
        {title}
      </Typography>
      {intro && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {intro}
        </Typography>
      )}
      {children}
    </Paper>
  );
}
