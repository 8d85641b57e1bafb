import type { StepKey } from '@ansim/shared/constants';
import type { ReportForm } from '@ansim/shared/report-form';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/messages';
import { RequestError } from '../../../lib/request-error';
import { type InvitationView, linkProblem, listInviteeFiles, submitStatement } from '../api/invitation-api';
import { forgetInvitationToken } from '../invitation-token';
import { useStatementContext, useStatementDraft } from '../statement-context';
import { statementDraftStore } from '../statement-draft-store';
import { type SavedReceipt, saveReceipt } from '../statement-receipt';
import { firstInvalidStep, statementSteps, stepOfPath } from '../statement-validation';
import { invitationQueryKey } from '../use-invitation';
import type { ProblemKind } from './link-problem-view';

type Row = [label: string, value: string];

function rowsOf(t: TFunction, step: StepKey, form: ReportForm, fileName: (id: string) => string): Row[] {
  const files = (ids: string[] | null) => (ids ?? []).map(fileName).join('\n');
  switch (step) {
    case 'defendantInfo':
      return [
        [t('invitation.fields.name'), form.reporter_name],
        [t('invitation.fields.role'), form.reporter_role],
        [t('invitation.fields.department'), form.reporter_department],
        [t('invitation.fields.tenure'), form.reporter_tenure],
      ];
    case 'defendantStatement':
      return [
        [
          t('invitation.fields.truth'),
          form.defendant_truth ? t(`invitation.truth.${form.defendant_truth}`) : '',
        ],
        [t('invitation.fields.truePart'), form.defendant_true_part],
        [t('invitation.fields.falsePart'), form.defendant_false_part],
        [t('invitation.fields.opinion'), form.defendant_opinion],
        [t('invitation.evidence.label'), files(form.defendant_evidences)],
      ];
    case 'witnesses':
      return [
        [
          t('invitation.witnesses.heading'),
          form.defendant_witnesses
            .map((w) => [w.name, w.department, w.position, w.email].filter(Boolean).join(' · '))
            .join('\n'),
        ],
        [t('invitation.fields.extraInfo'), form.defendant_extra_info],
      ];
    case 'reference':
      return [
        [t('invitation.fields.witnessed'), form.reference_witnessed],
        [t('invitation.fields.memory'), form.reference_memory],
        [t('invitation.fields.referenceOpinion'), form.reference_opinion],
        [t('invitation.evidence.label'), files(form.reference_evidences)],
      ];
    default:
      return [];
  }
}

/**
 * The whole statement before it is sent, step by step with a way back to each, then the submission. The
 * statement cannot be changed afterwards through this link, which the page says before the button.
 */
export function StatementReview({
  invitation,
  headingRef,
  onSubmitted,
  onProblem,
  onNotAcknowledged,
}: {
  invitation: InvitationView;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  onSubmitted: (receipt: SavedReceipt) => void;
  onProblem: (problem: ProblemKind) => void;
  onNotAcknowledged: () => void;
}) {
  const { t } = useTranslation();
  const { kind, token } = useStatementContext();
  const form = useStatementDraft((state) => state.form);
  const setStep = useStatementDraft((state) => state.setStep);
  const queryClient = useQueryClient();
  const [invalid, setInvalid] = useState(false);
  const files = useQuery({
    queryKey: ['api', 'v1', 'file', { invitation: kind }],
    queryFn: ({ signal }) => listInviteeFiles(token, signal),
  });
  const names = new Map((files.data ?? []).map((file) => [file.id, file.name]));
  const fileName = (id: string) => names.get(id) ?? t('invitation.evidence.unnamed');
  const steps = statementSteps(kind);

  const submit = useMutation({
    mutationFn: () => submitStatement(token, form),
    onSuccess: ({ receipt }) => {
      const saved: SavedReceipt = {
        receipt,
        submitted_at: new Date().toISOString(),
        case_number: invitation.case_number,
      };
      saveReceipt(kind, saved);
      // The statement is with the company now: nothing of it, and not the link, stays on this device.
      statementDraftStore(kind).getState().clear();
      forgetInvitationToken(kind);
      queryClient.removeQueries({ queryKey: invitationQueryKey(kind) });
      onSubmitted(saved);
    },
    onError: (error) => {
      const problem = linkProblem(error);
      if (problem === 'expired' || problem === 'invalid' || problem === 'alreadySubmitted') {
        onProblem(problem);
        return;
      }
      if (problem === 'notAcknowledged') {
        onNotAcknowledged();
        return;
      }
      if (error instanceof RequestError && error.details) {
        statementDraftStore(kind).getState().setServerErrors(error.details);
        const target = Object.keys(error.details)
          .map((path) => stepOfPath(kind, path))
          .find((index) => index !== null);
        if (target !== undefined && target !== null) setStep(target);
      }
    },
  });

  const send = () => {
    const invalidStep = firstInvalidStep(kind, form);
    if (invalidStep !== null) {
      setInvalid(true);
      setStep(invalidStep);
      return;
    }
    submit.mutate();
  };

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="statement-review-title"
      sx={{ p: { xs: 2, sm: 4 } }}
    >
      <Typography
        id="statement-review-title"
        variant="h2"
        ref={headingRef}
        tabIndex={-1}
        sx={{ mb: 1, outline: 'none' }}
      >
        {t('invitation.statement.reviewTitle')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        {t('invitation.statement.reviewIntro')}
      </Typography>
      <Stack spacing={4}>
        {steps.map((step, index) => (
          <Box component="section" key={step} aria-labelledby={`review-${step}`}>
            <Box
              sx={{
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'space-between',
                gap: 1,
                mb: 1.5,
                flexWrap: 'wrap',
              }}
            >
              <Typography id={`review-${step}`} variant="h3" sx={{ fontSize: '1.1rem', fontWeight: 700 }}>
                {t(`steps.${step}`)}
              </Typography>
              <Button
                size="small"
                startIcon={<EditOutlinedIcon aria-hidden="true" />}
                onClick={() => setStep(index)}
                aria-label={t('invitation.statement.editStep', { step: t(`steps.${step}`) })}
              >
                {t('invitation.statement.edit')}
              </Button>
            </Box>
            <Box
              component="dl"
              sx={{
                m: 0,
                display: 'grid',
                gridTemplateColumns: { xs: '1fr', sm: '11rem 1fr' },
                columnGap: 2,
              }}
            >
              {rowsOf(t, step, form, fileName).map(([label, value]) => (
                <Box key={label} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="body2" color="text.secondary" sx={{ pt: 0.25 }}>
                    {label}
                  </Typography>
                  <Typography
                    component="dd"
                    sx={{ m: 0, mb: 1.5, whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}
                    color={value ? undefined : 'text.secondary'}
                  >
                    {value || t('invitation.statement.empty')}
                  </Typography>
                </Box>
              ))}
            </Box>
          </Box>
        ))}
      </Stack>
      <Alert severity="info" sx={{ mt: 4 }}>
        {t('invitation.statement.finalNote')}
      </Alert>
      {invalid && (
        <Alert severity="warning" role="alert" sx={{ mt: 2 }}>
          {t('invitation.statement.fixFirst')}
        </Alert>
      )}
      {submit.isError && !linkProblem(submit.error) && (
        <Alert severity="error" role="alert" sx={{ mt: 2, whiteSpace: 'pre-line' }}>
          {errorText(t, submit.error)}
        </Alert>
      )}
      <Stack
        direction={{ xs: 'column-reverse', sm: 'row' }}
        spacing={1.5}
        sx={{ justifyContent: 'flex-end', mt: 3 }}
      >
        <Button variant="outlined" size="large" onClick={() => setStep(steps.length - 1)}>
          {t('invitation.statement.previous')}
        </Button>
        <Button
          variant="contained"
          size="large"
          onClick={send}
          disabled={submit.isPending}
          startIcon={submit.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
          data-testid="statement-submit"
        >
          {t('invitation.statement.submit')}
        </Button>
      </Stack>
    </Paper>
  );
}
