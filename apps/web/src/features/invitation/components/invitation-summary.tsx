import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useDateTime } from '../../../lib/datetime';
import type { InvitationView } from '../api/invitation-api';

/** Who asks, for which case and by when: the facts of the request as a definition list. */
export function InvitationSummary({ invitation }: { invitation: InvitationView }) {
  const { t } = useTranslation();
  const { date } = useDateTime();
  const rows: [string, string][] = [
    [t('invitation.summary.company'), invitation.company_name],
    [t('invitation.summary.caseNumber'), invitation.case_number],
    [t('invitation.summary.requested'), t(`invitation.kinds.${invitation.kind}`)],
    [
      t('invitation.summary.deadline'),
      t('invitation.summary.deadlineValue', { date: date(invitation.expires_at) }),
    ],
  ];
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: '9rem 1fr' },
        columnGap: 2,
        rowGap: { xs: 0.25, sm: 1.25 },
      }}
    >
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ pt: { xs: 1, sm: 0 } }}>
            {label}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 600, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
