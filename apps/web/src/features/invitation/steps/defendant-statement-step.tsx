import { DEFENDANT_TRUTH_OPTIONS } from '@ansim/shared/report-form-options';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldId, useFieldError } from '../../../components/form/step-errors';
import { InviteeEvidenceField } from '../components/invitee-evidence-field';
import { StatementTextField } from '../components/statement-fields';
import { useStatementDraft } from '../statement-context';

type Truth = (typeof DEFENDANT_TRUTH_OPTIONS)[number];

/** Step 2: the accused person's position on the report — what is true, what is not, and their view. */
export function DefendantStatementStep() {
  const { t } = useTranslation();
  const truth = useStatementDraft((state) => state.form.defendant_truth);
  const setField = useStatementDraft((state) => state.setField);
  const error = useFieldError('defendant_truth');
  const legendId = useId();
  return (
    <Stack spacing={3}>
      <FormControl error={Boolean(error)} required>
        <FormLabel id={legendId} sx={{ fontWeight: 600, mb: 0.5, color: 'text.primary' }}>
          {t('invitation.fields.truth')}
        </FormLabel>
        <RadioGroup
          aria-labelledby={legendId}
          value={truth}
          onChange={(event) => setField('defendant_truth', event.target.value as Truth)}
        >
          {DEFENDANT_TRUTH_OPTIONS.map((option, index) => (
            <FormControlLabel
              key={option}
              value={option}
              // The first option carries the field's id so a failed check can move focus to the group.
              control={<Radio id={index === 0 ? fieldId('defendant_truth') : undefined} />}
              label={t(`invitation.truth.${option}`)}
            />
          ))}
        </RadioGroup>
        <FormHelperText>{error ?? t('invitation.fields.truthHelp')}</FormHelperText>
      </FormControl>
      <StatementTextField
        field="defendant_true_part"
        label={t('invitation.fields.truePart')}
        helperText={t('invitation.fields.truePartHelp')}
        multiline
        minRows={3}
      />
      <StatementTextField
        field="defendant_false_part"
        label={t('invitation.fields.falsePart')}
        helperText={t('invitation.fields.falsePartHelp')}
        multiline
        minRows={3}
      />
      <StatementTextField
        field="defendant_opinion"
        label={t('invitation.fields.opinion')}
        helperText={t('invitation.fields.opinionHelp')}
        required
        multiline
        minRows={4}
      />
      <InviteeEvidenceField field="defendant_evidences" />
    </Stack>
  );
}
