import EventBusyOutlinedIcon from '@mui/icons-material/EventBusyOutlined';
import LinkOffOutlinedIcon from '@mui/icons-material/LinkOffOutlined';
import MarkEmailReadOutlinedIcon from '@mui/icons-material/MarkEmailReadOutlined';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PageShell } from '../../../components/page-shell';

/** Why an invitee cannot go on; each has its own page (R-INV-3: expired and revoked/unknown are told apart). */
export type ProblemKind = 'missing' | 'expired' | 'invalid' | 'alreadySubmitted';

const ICONS: Record<ProblemKind, typeof LinkOffOutlinedIcon> = {
  missing: LinkOffOutlinedIcon,
  expired: EventBusyOutlinedIcon,
  invalid: LinkOffOutlinedIcon,
  alreadySubmitted: MarkEmailReadOutlinedIcon,
};

/**
 * A calm page for a link that cannot be used. It says what to do next (ask the 담당자 who sent the mail),
 * never more than the visitor needs: nothing about the case or whether the link ever existed.
 */
export function LinkProblemView({ problem }: { problem: ProblemKind }) {
  const { t } = useTranslation();
  const Icon = ICONS[problem];
  return (
    <PageShell title={t(`invitation.problem.${problem}.title`)} maxWidth="sm">
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }} data-testid={`invitation-problem-${problem}`}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Box sx={{ color: 'primary.main', pt: 0.25 }}>
            <Icon aria-hidden="true" />
          </Box>
          <Stack spacing={1.5}>
            <Typography>{t(`invitation.problem.${problem}.body`)}</Typography>
            <Typography color="text.secondary">{t(`invitation.problem.${problem}.next`)}</Typography>
          </Stack>
        </Stack>
      </Paper>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
        {t('invitation.noAccountNeeded')}
      </Typography>
    </PageShell>
  );
}
