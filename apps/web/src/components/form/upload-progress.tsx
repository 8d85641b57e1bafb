import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';

/** One file's upload bar; `label` names the file for screen readers, `caption` says the stage. */
export function UploadProgress({
  label,
  percent,
  caption,
  testId,
}: {
  label: string;
  percent: number;
  caption: string;
  testId: string;
}) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mt: 1 }}>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label={label}
        data-testid={testId}
        sx={{ flex: 1, height: 6, borderRadius: 3 }}
      />
      <Typography variant="caption" color="text.secondary" sx={{ minWidth: 88, textAlign: 'right' }}>
        {caption} {percent}%
      </Typography>
    </Box>
  );
}
