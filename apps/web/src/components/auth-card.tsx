import Paper from '@mui/material/Paper';
import { PageShell } from './page-shell';

/** The frame every account page shares: one h1, a short explanation and a card. */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <PageShell title={title} subtitle={subtitle} maxWidth="sm">
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        {children}
      </Paper>
    </PageShell>
  );
}
