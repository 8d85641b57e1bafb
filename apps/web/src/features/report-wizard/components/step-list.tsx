import type { ReportType, StepKey } from '@ansim/shared/constants';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { stepDescription, stepLabel } from '../../../lib/report-type-labels';

/** The ordered steps of a report type with what each one asks for. */
export function StepList({
  steps,
  type,
  headingLevel = 'h3',
}: {
  steps: readonly StepKey[];
  type?: ReportType;
  /** Step titles sit one level below the nearest heading above the list. */
  headingLevel?: 'h2' | 'h3';
}) {
  const { t } = useTranslation();
  return (
    <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
      {steps.map((step, index) => (
        <Box
          component="li"
          key={step}
          sx={{ display: 'flex', gap: 2, p: 2, border: 1, borderColor: 'divider', borderRadius: 2 }}
        >
          <Box
            aria-hidden="true"
            sx={{
              width: 32,
              height: 32,
              flexShrink: 0,
              borderRadius: '50%',
              bgcolor: 'primary.main',
              color: 'primary.contrastText',
              display: 'grid',
              placeItems: 'center',
              fontWeight: 700,
            }}
          >
            {index + 1}
          </Box>
          <Box>
            <Typography variant="h3" component={headingLevel} sx={{ fontSize: '1.05rem' }}>
              {stepLabel(t, step)}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {stepDescription(t, step, type)}
            </Typography>
          </Box>
        </Box>
      ))}
    </Box>
  );
}
