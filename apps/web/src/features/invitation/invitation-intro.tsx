import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageShell } from '../../components/page-shell';
import { paths } from '../../config/paths';
import { useDateTime } from '../../lib/datetime';
import { errorText } from '../../lib/messages';
import {
  acknowledgeInvitation,
  type InvitationKind,
  type InvitationView,
  linkProblem,
} from './api/invitation-api';
import { ActsInQuestion, AllegedActs } from './components/alleged-acts';
import { InvitationLoadError, InvitationLoading, RespondedView } from './components/invitation-states';
import { InvitationSummary } from './components/invitation-summary';
import { LinkProblemView } from './components/link-problem-view';
import { invitationQueryKey, useInvitation, useInvitationToken } from './use-invitation';

const statementPath = (kind: InvitationKind) =>
  kind === 'defendant' ? paths.defendantA.to() : paths.referenceA.to();

/**
 * The page an invitation mail links to (R-WEB-1 /defendant, /reference; R-INV-3): who asks and about what, how the
 * statement is handled, and the confidentiality duty the invitee acknowledges before writing anything.
 */
export function InvitationIntro({ kind }: { kind: InvitationKind }) {
  const { t } = useTranslation();
  const token = useInvitationToken(kind);
  const query = useInvitation(kind, token);

  if (!token) return <LinkProblemView problem="missing" />;
  if (query.isPending) return <InvitationLoading title={t(`invitation.${kind}.title`)} />;
  if (query.isError) {
    const problem = linkProblem(query.error);
    if (problem === 'expired' || problem === 'invalid') return <LinkProblemView problem={problem} />;
    return (
      <InvitationLoadError
        title={t(`invitation.${kind}.title`)}
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const invitation = query.data;
  if (invitation.kind !== kind) return <LinkProblemView problem="invalid" />;
  if (invitation.responded_at) return <RespondedView invitation={invitation} />;
  return <IntroContent invitation={invitation} token={token} />;
}

function IntroContent({ invitation, token }: { invitation: InvitationView; token: string }) {
  const { t } = useTranslation();
  const { kind } = invitation;
  return (
    <PageShell
      title={t(`invitation.${kind}.title`)}
      subtitle={t(`invitation.${kind}.greeting`, {
        name: invitation.invitee_name,
        company: invitation.company_name,
      })}
      maxWidth="md"
    >
      <Stack spacing={4}>
        <Section title={t('invitation.summary.heading')}>
          <InvitationSummary invitation={invitation} />
        </Section>

        {kind === 'defendant' ? (
          <Section title={t('invitation.acts.heading')} description={t('invitation.acts.intro')}>
            <AllegedActs invitation={invitation} token={token} />
          </Section>
        ) : (
          invitation.acts.some((act) => act.date || act.location) && (
            <Section title={t('invitation.actsInQuestion.heading')}>
              <ActsInQuestion invitation={invitation} />
            </Section>
          )
        )}

        <Section title={t('invitation.process.heading')}>
          <Box component="ul" sx={{ m: 0, pl: 3, '& li': { mb: 1 } }}>
            {(t(`invitation.process.${kind}`, { returnObjects: true }) as string[]).map((line) => (
              <Typography component="li" key={line}>
                {line}
              </Typography>
            ))}
          </Box>
        </Section>

        <Acknowledgement invitation={invitation} token={token} />
        <Typography variant="body2" color="text.secondary">
          {t('invitation.noAccountNeeded')}
        </Typography>
      </Stack>
    </PageShell>
  );
}

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <Box component="section" aria-labelledby={id}>
      <Typography id={id} variant="h2" sx={{ fontSize: '1.25rem', mb: description ? 0.75 : 2 }}>
        {title}
      </Typography>
      {description && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {description}
        </Typography>
      )}
      {children}
    </Box>
  );
}

/**
 * Labor Standards Act art. 76-3 ⑦: whoever takes part in the investigation must keep what they learn in it
 * confidential. The invitee confirms this explicitly, and the API records when, before a statement is taken.
 */
function Acknowledgement({ invitation, token }: { invitation: InvitationView; token: string }) {
  const { t } = useTranslation();
  const { dateTime } = useDateTime();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [isChecked, setIsChecked] = useState(false);
  const [showMissing, setShowMissing] = useState(false);
  const headingId = useId();
  const acknowledge = useMutation({
    mutationFn: () => acknowledgeInvitation(token),
    onSuccess: ({ acknowledged_at }) => {
      queryClient.setQueryData<InvitationView>(invitationQueryKey(invitation.kind), (current) =>
        current ? { ...current, acknowledged_at } : current,
      );
      navigate(statementPath(invitation.kind));
    },
    onError: (error) => {
      const problem = linkProblem(error);
      // The link stopped working while the page was open: the page for that case explains it.
      if (problem === 'expired' || problem === 'invalid')
        void queryClient.invalidateQueries({ queryKey: invitationQueryKey(invitation.kind) });
    },
  });
  const isAcknowledged = Boolean(invitation.acknowledged_at);

  const submit = () => {
    if (!isChecked) {
      setShowMissing(true);
      return;
    }
    acknowledge.mutate();
  };

  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      variant="outlined"
      sx={{ p: { xs: 2.5, sm: 4 }, borderColor: 'primary.main', borderWidth: 2 }}
      data-testid="confidentiality"
    >
      <Typography id={headingId} variant="h2" sx={{ fontSize: '1.25rem', mb: 1.5 }}>
        {t('invitation.confidentiality.heading')}
      </Typography>
      <Typography sx={{ mb: 1.5 }}>{t('invitation.confidentiality.law')}</Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('invitation.confidentiality.scope')}
      </Typography>
      {isAcknowledged ? (
        <Stack spacing={2.5} sx={{ alignItems: 'flex-start' }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'success.main' }}>
            <CheckCircleOutlineIcon aria-hidden="true" />
            <Typography sx={{ color: 'text.primary' }} data-testid="acknowledged-at">
              {t('invitation.confidentiality.done', { time: dateTime(invitation.acknowledged_at!) })}
            </Typography>
          </Stack>
          <Button variant="contained" size="large" onClick={() => navigate(statementPath(invitation.kind))}>
            {t('invitation.confidentiality.continue')}
          </Button>
        </Stack>
      ) : (
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <FormControlLabel
            control={
              <Checkbox
                checked={isChecked}
                onChange={(event) => {
                  setIsChecked(event.target.checked);
                  if (event.target.checked) setShowMissing(false);
                }}
                slotProps={{
                  input: { 'aria-describedby': showMissing ? `${headingId}-missing` : undefined },
                }}
              />
            }
            label={t('invitation.confidentiality.checkbox')}
            sx={{ alignItems: 'flex-start', '& .MuiCheckbox-root': { mt: -0.75 } }}
          />
          {showMissing && (
            <Typography id={`${headingId}-missing`} color="error" role="alert" variant="body2">
              {t('invitation.confidentiality.required')}
            </Typography>
          )}
          {acknowledge.isError && (
            <Alert severity="error" role="alert" sx={{ alignSelf: 'stretch' }}>
              {errorText(t, acknowledge.error)}
            </Alert>
          )}
          <Button
            variant="contained"
            size="large"
            onClick={submit}
            disabled={acknowledge.isPending}
            startIcon={acknowledge.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
          >
            {t('invitation.confidentiality.submit')}
          </Button>
        </Stack>
      )}
    </Paper>
  );
}
