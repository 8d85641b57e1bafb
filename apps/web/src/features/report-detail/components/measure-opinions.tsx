import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/text-input';
import { useDateTime } from '../../../lib/datetime';
import { errorText } from '../../../lib/messages';
import type { ReportDetail } from '../api/get-report';
import { useMeasureOpinion } from '../api/measure-opinion';

// Outlined warning text fails AA contrast; a refusal is stated in words and its reason, not in orange.
const DECISION_COLORS = { pending: 'default', granted: 'success', refused: 'default' } as const;
const OPINION_MAX = 5000;

type Measure = ReportDetail['measures'][number];

/**
 * The protective measures with the reporter's say on each: the law (근로기준법 제76조의3 ③④) has the employer
 * hear the victim and not act against their will, so each measure can be agreed to or objected to, with words.
 */
export function MeasureOpinions({ report }: { report: ReportDetail }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      <Alert severity="info" icon={false} data-testid="measure-right">
        <Typography component="p" sx={{ fontWeight: 700, mb: 0.5 }}>
          {t('reportDetail.opinion.rightTitle')}
        </Typography>
        <Typography component="p" variant="body2">
          {t('reportDetail.opinion.rightBody')}
        </Typography>
      </Alert>
      {report.measures.length === 0 ? (
        <Typography color="text.secondary">{t('reportDetail.noMeasures')}</Typography>
      ) : (
        <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {report.measures.map((measure) => (
            <MeasureItem
              key={measure.id}
              reportId={report.id}
              measure={measure}
              isClosed={report.is_closed}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function MeasureItem({
  reportId,
  measure,
  isClosed,
}: {
  reportId: string;
  measure: Measure;
  isClosed: boolean;
}) {
  const { t } = useTranslation();
  const { date: formatDate, dateTime: formatDateTime } = useDateTime();
  const titleId = useId();
  const mutation = useMeasureOpinion(reportId);
  const [opinion, setOpinion] = useState(measure.reporter_opinion);
  const [editing, setEditing] = useState(measure.reporter_consent === null);
  const answered = measure.reporter_consent !== null;
  const name = t(`options.protection.${measure.measure}`, { defaultValue: measure.measure });

  const answer = (consent: boolean) =>
    mutation.mutate(
      { measureId: measure.id, consent, opinion: opinion.trim() },
      { onSuccess: () => setEditing(false) },
    );

  return (
    <Box
      component="li"
      aria-labelledby={titleId}
      data-testid="measure-item"
      sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5 }}
    >
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography id={titleId} component="h3" sx={{ fontWeight: 700, fontSize: '1rem' }}>
          {name}
        </Typography>
        <Chip
          size="small"
          variant="outlined"
          color={DECISION_COLORS[measure.decision] ?? 'default'}
          label={t(`reportDetail.decisions.${measure.decision}`)}
        />
      </Box>
      {measure.detail && (
        <Typography variant="body2" sx={{ mt: 0.5, whiteSpace: 'pre-line' }}>
          {measure.detail}
        </Typography>
      )}
      {measure.reason && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, whiteSpace: 'pre-line' }}>
          {t('reportDetail.decisionReason', { reason: measure.reason })}
        </Typography>
      )}
      {measure.decided_at && (
        <Typography variant="caption" color="text.secondary" component="p">
          {t('reportDetail.decidedAt', { date: formatDate(measure.decided_at) })}
        </Typography>
      )}
      {answered && (
        <Box sx={{ mt: 1 }} data-testid="measure-opinion-recorded">
          <Typography variant="body2" sx={{ fontWeight: 700 }}>
            {measure.reporter_consent ? t('reportDetail.opinion.agreed') : t('reportDetail.opinion.objected')}
            {measure.reporter_opinion_at && (
              <Box component="span" sx={{ fontWeight: 400, color: 'text.secondary', ml: 1 }}>
                {formatDateTime(measure.reporter_opinion_at)}
              </Box>
            )}
          </Typography>
          {measure.reporter_opinion && (
            <Typography variant="body2" sx={{ whiteSpace: 'pre-line' }}>
              {measure.reporter_opinion}
            </Typography>
          )}
        </Box>
      )}
      {isClosed ? (
        answered ? null : (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('reportDetail.opinion.closed')}
          </Typography>
        )
      ) : editing ? (
        <Box sx={{ mt: 1.5 }}>
          {mutation.error && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {errorText(t, mutation.error)}
            </Alert>
          )}
          <TextInput
            fullWidth
            multiline
            minRows={2}
            label={t('reportDetail.opinion.label', { measure: name })}
            helperText={t('reportDetail.opinion.help')}
            value={opinion}
            onChange={(event) => setOpinion(event.target.value)}
            slotProps={{ htmlInput: { maxLength: OPINION_MAX } }}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 1 }}>
            <Button variant="contained" disabled={mutation.isPending} onClick={() => answer(true)}>
              {t('reportDetail.opinion.agree')}
            </Button>
            <Button variant="outlined" disabled={mutation.isPending} onClick={() => answer(false)}>
              {t('reportDetail.opinion.object')}
            </Button>
            {answered && (
              <Button disabled={mutation.isPending} onClick={() => setEditing(false)}>
                {t('reportDetail.opinion.cancel')}
              </Button>
            )}
          </Stack>
        </Box>
      ) : (
        <Button size="small" sx={{ mt: 1 }} onClick={() => setEditing(true)}>
          {t('reportDetail.opinion.change')}
        </Button>
      )}
    </Box>
  );
}

/** The finding of the investigation, and the summary where the company shares it (76-3 ⑤). */
export function OutcomeNotice({ outcome }: { outcome: NonNullable<ReportDetail['outcome']> }) {
  const { t } = useTranslation();
  const { dateTime: formatDateTime } = useDateTime();
  return (
    <Box data-testid="report-outcome">
      <Typography sx={{ fontWeight: 700 }}>
        {t('reportDetail.outcome.finding', { finding: outcome.finding_label })}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('reportDetail.outcome.recordedAt', { date: formatDateTime(outcome.recorded_at) })}
      </Typography>
      {outcome.summary && <Typography sx={{ mt: 1, whiteSpace: 'pre-line' }}>{outcome.summary}</Typography>}
    </Box>
  );
}
