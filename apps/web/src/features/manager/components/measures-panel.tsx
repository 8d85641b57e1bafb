import type { CaseMeasure, ManagerCase } from '@ansim/shared/contract/manager';
import { PROTECTION_OPTIONS, type ProtectionOption } from '@ansim/shared/report-form-options';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/text-input';
import { formatDateTime } from '../../../lib/datetime';
import { useOpenedOnce } from '../../../lib/use-opened-once';
import { useAddMeasure, useUpdateMeasure } from '../api/measures';
import { protectionLabel } from './labels';

const MeasureReasonDialog = lazy(() => import('./measure-reason-dialog'));

const DECISION_COLORS = { pending: 'default', granted: 'success', refused: 'error' } as const;

function consentValue(consent: boolean | null): 'yes' | 'no' | 'unknown' {
  return consent === null ? 'unknown' : consent ? 'yes' : 'no';
}

function MeasureItem({
  measure,
  reportId,
  isClosed,
  onReason,
}: {
  measure: CaseMeasure;
  reportId: string;
  isClosed: boolean;
  onReason: (decision: 'granted' | 'refused') => void;
}) {
  const { t, i18n } = useTranslation();
  const mutation = useUpdateMeasure(reportId);
  const consentId = `measure-consent-${measure.id}`;
  return (
    <Box
      component="li"
      sx={{ py: 1.5, '& + &': { borderTop: 1, borderColor: 'divider' } }}
      data-testid="measure"
    >
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography component="span" sx={{ fontWeight: 700 }}>
          {protectionLabel(t, measure.measure)}
        </Typography>
        {measure.requested_by_reporter && (
          <Chip size="small" variant="outlined" label={t('manager.measures.requested')} />
        )}
        <Chip
          size="small"
          color={DECISION_COLORS[measure.decision]}
          label={t(`manager.measures.decision.${measure.decision}`)}
        />
      </Box>
      {measure.detail && (
        <Typography sx={{ whiteSpace: 'pre-wrap', mt: 0.5, overflowWrap: 'anywhere' }}>
          {measure.detail}
        </Typography>
      )}
      {measure.reporter_opinion_at && (
        <Box sx={{ mt: 0.5 }} data-testid="measure-reporter-opinion">
          <Typography variant="body2" sx={{ fontWeight: 700 }}>
            {measure.reporter_consent
              ? t('manager.measures.opinionAgreed')
              : t('manager.measures.opinionObjected')}
            <Box component="span" sx={{ fontWeight: 400, color: 'text.secondary', ml: 1 }}>
              {formatDateTime(measure.reporter_opinion_at, i18n.language)}
            </Box>
          </Typography>
          {measure.reporter_opinion && (
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {measure.reporter_opinion}
            </Typography>
          )}
        </Box>
      )}
      {measure.decision !== 'pending' && measure.reason && (
        <Typography variant="body2" sx={{ mt: 0.5, whiteSpace: 'pre-wrap' }}>
          {t('manager.measures.reasonShown', { reason: measure.reason })}
        </Typography>
      )}
      {measure.decided_at && (
        <Typography variant="body2" color="text.secondary">
          {t('manager.measures.decidedAt', { at: formatDateTime(measure.decided_at, i18n.language) })}
        </Typography>
      )}
      {mutation.error && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {mutation.error.message}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mt: 1 }}>
        {/* The reporter's own answer is theirs: the handler records consent only until the reporter answers. */}
        {!measure.reporter_opinion_at && (
          <TextInput
            fullWidth={false}
            id={consentId}
            disabled={isClosed}
            select
            size="small"
            label={t('manager.measures.consent')}
            value={consentValue(measure.reporter_consent)}
            onChange={(event) =>
              mutation.mutate({
                measureId: measure.id,
                reporter_consent: event.target.value === 'unknown' ? null : event.target.value === 'yes',
              })
            }
            sx={{ minWidth: 160, width: 'auto' }}
          >
            <option value="unknown">{t('manager.measures.consentUnknown')}</option>
            <option value="yes">{t('manager.measures.consentYes')}</option>
            <option value="no">{t('manager.measures.consentNo')}</option>
          </TextInput>
        )}
        {!isClosed && (
          <Box className="no-print" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {measure.decision !== 'granted' && (
              <Button
                size="small"
                variant="outlined"
                color="success"
                disabled={mutation.isPending}
                onClick={() =>
                  measure.reporter_consent === false
                    ? onReason('granted')
                    : mutation.mutate({ measureId: measure.id, decision: 'granted' })
                }
              >
                {t('manager.measures.grant')}
              </Button>
            )}
            {measure.decision !== 'refused' && (
              <Button size="small" variant="outlined" color="error" onClick={() => onReason('refused')}>
                {t('manager.measures.refuse')}
              </Button>
            )}
            {measure.decision !== 'pending' && (
              <Button
                size="small"
                disabled={mutation.isPending}
                onClick={() => mutation.mutate({ measureId: measure.id, decision: 'pending' })}
              >
                {t('manager.measures.reopen')}
              </Button>
            )}
          </Box>
        )}
      </Box>
    </Box>
  );
}

function AddMeasureForm({ reportId }: { reportId: string }) {
  const { t } = useTranslation();
  const mutation = useAddMeasure(reportId);
  const [measure, setMeasure] = useState<ProtectionOption>(PROTECTION_OPTIONS[0]);
  const [detail, setDetail] = useState('');
  return (
    <Box
      component="form"
      className="no-print"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        mutation.mutate({ measure, detail: detail.trim() }, { onSuccess: () => setDetail('') });
      }}
      sx={{ display: 'grid', gap: 1.5, mt: 2 }}
    >
      <Typography variant="h3" sx={{ fontSize: '1rem' }}>
        {t('manager.measures.addTitle')}
      </Typography>
      {mutation.error && (
        <Alert severity="error" role="alert">
          {mutation.error.message}
        </Alert>
      )}
      <TextInput
        fullWidth={false}
        id="measure-new-kind"
        select
        size="small"
        label={t('manager.measures.kind')}
        value={measure}
        // The select offers PROTECTION_OPTIONS only.
        onChange={(event) => setMeasure(event.target.value as ProtectionOption)}
      >
        {PROTECTION_OPTIONS.map((option) => (
          <option key={option} value={option}>
            {protectionLabel(t, option)}
          </option>
        ))}
      </TextInput>
      <TextInput
        fullWidth={false}
        id="measure-new-detail"
        size="small"
        label={t('manager.measures.detail')}
        value={detail}
        onChange={(event) => setDetail(event.target.value)}
        multiline
        minRows={2}
        slotProps={{ htmlInput: { maxLength: 5000 } }}
      />
      <Box>
        <Button type="submit" variant="outlined" disabled={mutation.isPending}>
          {t('manager.measures.add')}
        </Button>
      </Box>
    </Box>
  );
}

export function MeasuresPanel({ report }: { report: ManagerCase }) {
  const { t } = useTranslation();
  const [reasonFor, setReasonFor] = useState<{
    measure: CaseMeasure;
    decision: 'granted' | 'refused';
  } | null>(null);
  const isClosed = report.is_closed;
  const reasonOpened = useOpenedOnce(reasonFor !== null);
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('manager.measures.intro')}
      </Typography>
      {report.measures.length === 0 ? (
        <Typography color="text.secondary">{t('manager.measures.empty')}</Typography>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {report.measures.map((measure) => (
            <MeasureItem
              key={measure.id}
              measure={measure}
              reportId={report.id}
              isClosed={isClosed}
              onReason={(decision) => setReasonFor({ measure, decision })}
            />
          ))}
        </Box>
      )}
      {isClosed ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }} data-testid="measures-closed">
          {t('manager.closed.measures')}
        </Typography>
      ) : (
        <AddMeasureForm reportId={report.id} />
      )}
      {reasonOpened && (
        <Suspense fallback={null}>
          <MeasureReasonDialog target={reasonFor} reportId={report.id} onClose={() => setReasonFor(null)} />
        </Suspense>
      )}
    </Box>
  );
}
