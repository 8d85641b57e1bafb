import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useDocumentTitle } from './page-title';

interface PageShellProps {
  /** The page's one h1, also used for the document title. */
  title: string;
  subtitle?: React.ReactNode;
  maxWidth?: 'sm' | 'md' | 'lg';
  children: React.ReactNode;
}

export function PageShell({ title, subtitle, maxWidth = 'md', children }: PageShellProps) {
  useDocumentTitle(title);
  return (
    <Container maxWidth={maxWidth} sx={{ py: { xs: 4, md: 6 } }}>
      <Box sx={{ mb: 3 }}>
        <Typography variant="h1" component="h1">
          {title}
        </Typography>
        {subtitle && (
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {subtitle}
          </Typography>
        )}
      </Box>
      {children}
    </Container>
  );
}
