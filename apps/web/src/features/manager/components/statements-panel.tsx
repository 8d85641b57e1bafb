import type { CaseStatement } from '@ansim/shared/contract/manager';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/datetime';
import { EvidenceLinks } from './evidence-links';
import { defendantTruthLabel } from './labels';
import { Field } from './section';
import { outlinedTone } from './status-chip';

/** Statement evidence belongs to the invitee; its files are not in the case's list, so names are generic. */
function StatementEvidence({ ids }: { ids: unknown }) {
  return Array.isArray(ids) ? <EvidenceLinks ids={ids as string[]} files={[]} /> : null;
}

function Statement({ statement }: { statement: CaseStatement }) {
  const { t, i18n } = useTranslation();
  const form = statement.form;
  return (
    <Box component="article" sx={{ mb: 2 }} data-testid="statement">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
        <Chip
          size="small"
          color={statement.kind === 'defendant' ? 'warning' : 'info'}
          variant="outlined"
          sx={outlinedTone(statement.kind === 'defendant' ? 'warning' : 'info')}
          label={t(`manager.statements.kind.${statement.kind}`)}
        />
        <Typography component="h3" sx={{ fontWeight: 700, fontSize: '1rem' }}>
          {statement.name}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {formatDateTime(statement.created_at, i18n.language)}
        </Typography>
      </Box>
      {statement.kind === 'defendant' ? (
        <Box component="dl" sx={{ m: 0 }}>
          <Field label={t('manager.statements.truth')}>
            {form.defendant_truth ? defendantTruthLabel(t, form.defendant_truth) : ''}
          </Field>
          <Field label={t('manager.statements.truePart')}>{form.defendant_true_part}</Field>
          <Field label={t('manager.statements.falsePart')}>{form.defendant_false_part}</Field>
          <Field label={t('manager.statements.opinion')}>{form.defendant_opinion}</Field>
          <Field label={t('manager.statements.extraInfo')}>{form.defendant_extra_info}</Field>
          {(form.defendant_witnesses ?? []).length > 0 && (
            <Field label={t('manager.statements.witnesses')}>
              {(form.defendant_witnesses ?? [])
                .map((witness) =>
                  [witness.name, witness.department, witness.position, witness.email]
                    .filter(Boolean)
                    .join(' · '),
                )
                .join('\n')}
            </Field>
          )}
        </Box>
      ) : (
        <Box component="dl" sx={{ m: 0 }}>
          <Field label={t('manager.statements.witnessed')}>{form.reference_witnessed}</Field>
          <Field label={t('manager.statements.memory')}>{form.reference_memory}</Field>
          <Field label={t('manager.statements.opinion')}>{form.reference_opinion}</Field>
        </Box>
      )}
      <StatementEvidence
        ids={statement.kind === 'defendant' ? form.defendant_evidences : form.reference_evidences}
      />
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {t('manager.statements.sha256')}{' '}
        <Box component="code" sx={{ fontSize: '0.8rem' }} data-testid="statement-sha256">
          {statement.sha256}
        </Box>
      </Typography>
    </Box>
  );
}

export function StatementsPanel({ statements }: { statements: CaseStatement[] }) {
  const { t } = useTranslation();
  if (statements.length === 0) {
    return <Typography color="text.secondary">{t('manager.statements.empty')}</Typography>;
  }
  return (
    <Box>
      {statements.map((statement, index) => (
        <Box key={statement.id}>
          {index > 0 && <Divider sx={{ mb: 2 }} />}
          <Statement statement={statement} />
        </Box>
      ))}
    </Box>
  );
}
