import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/**
 * One file's upload bar; `label` names the file for screen readers, `caption` says the stage. A plain
 * progressbar rather than MUI's LinearProgress: every page with an upload (the wizard, the statements, both
 * case pages) would otherwise load its 2.5 KB of script and keyframes for one coloured bar.
 */
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
      <Box
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        data-testid={testId}
        sx={{ flex: 1, height: 6, borderRadius: 3, overflow: 'hidden', bgcolor: 'action.selected' }}
      >
        <Box
          sx={{
            height: '100%',
            width: `${percent}%`,
            bgcolor: 'primary.main',
            transition: (theme) => theme.transitions.create('width'),
          }}
        />
      </Box>
      <Typography variant="caption" color="text.secondary" sx={{ minWidth: 88, textAlign: 'right' }}>
        {caption} {percent}%
      </Typography>
    </Box>
  );
}

/** One upload that failed: the file's name over the server's reason, until its close button dismisses it. */
export function UploadFailure({
  name,
  error,
  dismissLabel,
  onDismiss,
  testId,
  spacing,
}: {
  name: string;
  error: string;
  dismissLabel: string;
  onDismiss: () => void;
  testId: string;
  /** The space below it, in theme units: the list it sits in sets the rhythm. */
  spacing: number;
}) {
  return (
    <Alert
      severity="error"
      sx={{ mb: spacing, whiteSpace: 'pre-line' }}
      data-testid={testId}
      onClose={onDismiss}
      slotProps={{ closeButton: { 'aria-label': dismissLabel } }}
    >
      <strong>{name}</strong>
      {`\n${error}`}
    </Alert>
  );
}
