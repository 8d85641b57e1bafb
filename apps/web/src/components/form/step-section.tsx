import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';

/** A titled part of a step (h3 under the step's h2). */
export function StepSection({
  title,
  description,
  children,
}: {
  title: string;
  description?: React.ReactNode;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <Box component="section" aria-labelledby={id}>
      <Typography
        id={id}
        variant="h3"
        sx={{ fontSize: '1.1rem', fontWeight: 700, mb: description ? 0.5 : 2 }}
      >
        {title}
      </Typography>
      {description && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {description}
        </Typography>
      )}
      <Stack spacing={2.5}>{children}</Stack>
    </Box>
  );
}
