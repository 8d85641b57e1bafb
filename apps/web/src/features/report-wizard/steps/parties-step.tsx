import { RELATIONSHIP_OPTIONS_KO, REPORTER_KINDS } from '@ansim/shared/report-form-options';
import Alert from '@mui/material/Alert';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DraftTextField, fieldId, useFieldError } from '../../../components/form/draft-fields';
import { StepSection } from '../../../components/form/step-section';
import { TextInput } from '../../../components/text-input';
import { useReportForm } from '../../../stores/report-form-store';
import { FormField } from '../components/report-fields';

const OTHER_RELATIONSHIP = '기타';
type RelationshipOption = (typeof RELATIONSHIP_OPTIONS_KO)[number];
const isListedRelationship = (value: string): value is RelationshipOption =>
  (RELATIONSHIP_OPTIONS_KO as readonly string[]).includes(value);

/** Step 1: who reports, who is reported, and how they relate. Anonymous reports never ask who reports. */
export function PartiesStep() {
  const { t } = useTranslation();
  const isAnonymous = useReportForm((state) => state.form.report_type === 'anonym');
  return (
    <Stack spacing={5}>
      <StepSection title={t('parties.reporterHeading')}>
        {isAnonymous && (
          <Alert severity="info" data-testid="anonym-notice">
            {t('parties.anonymNotice')}
          </Alert>
        )}
        <ReporterTypeField />
        {!isAnonymous && (
          <>
            <FormField field="reporter_name" label={t('parties.reporterName')} required autoComplete="name" />
            <FormField field="reporter_department" label={t('parties.department')} />
            <FormField field="reporter_role" label={t('parties.role')} autoComplete="organization-title" />
            <FormField
              field="reporter_tenure"
              label={t('parties.tenure')}
              helperText={t('parties.tenureHelp')}
            />
          </>
        )}
      </StepSection>
      <StepSection title={t('parties.perpetratorHeading')} description={t('parties.perpetratorHelp')}>
        <FormField field="perpetrator_name" label={t('parties.perpetratorName')} required />
        <FormField field="perpetrator_department" label={t('parties.department')} />
        <FormField field="perpetrator_role" label={t('parties.role')} />
        <FormField field="perpetrator_tenure" label={t('parties.tenure')} />
        <FormField
          field="perpetrator_email"
          type="email"
          label={t('parties.perpetratorEmail')}
          helperText={t('parties.perpetratorEmailHelp')}
        />
      </StepSection>
      <StepSection title={t('parties.relationshipHeading')}>
        <RelationshipField />
      </StepSection>
    </Stack>
  );
}

function ReporterTypeField() {
  const { t } = useTranslation();
  const labelId = useId();
  const value = useReportForm((state) => state.form.reporter_type);
  const setField = useReportForm((state) => state.setField);
  const error = useFieldError('reporter_type');
  return (
    <FormControl error={Boolean(error)} required>
      <FormLabel id={labelId} sx={{ fontWeight: 600 }}>
        {t('parties.reporterType')}
      </FormLabel>
      <RadioGroup
        aria-labelledby={labelId}
        value={value}
        onChange={(event) => setField('reporter_type', event.target.value as (typeof REPORTER_KINDS)[number])}
      >
        {REPORTER_KINDS.map((kind, index) => (
          <FormControlLabel
            key={kind}
            value={kind}
            control={<Radio id={index === 0 ? fieldId('reporter_type') : undefined} />}
            label={t(`options.reporterKinds.${kind}`)}
          />
        ))}
      </RadioGroup>
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
}

/**
 * The relationship is one free string on the wire. The common answers are offered in a list; choosing 기타
 * (other) opens a text field whose text becomes the value, so a reloaded free answer shows as "other".
 */
function RelationshipField() {
  const { t } = useTranslation();
  const value = useReportForm((state) => state.form.relationship);
  const setField = useReportForm((state) => state.setField);
  const isOther = value !== '' && (!isListedRelationship(value) || value === OTHER_RELATIONSHIP);
  const selected = isOther ? OTHER_RELATIONSHIP : value;
  const freeText = isOther && value !== OTHER_RELATIONSHIP ? value : '';
  return (
    <>
      <TextInput
        id={fieldId('relationship')}
        select
        label={t('parties.relationship')}
        value={selected}
        onChange={(event) => setField('relationship', event.target.value)}
        slotProps={{ inputLabel: { shrink: true } }}
      >
        <option value="">{t('parties.relationshipPlaceholder')}</option>
        {RELATIONSHIP_OPTIONS_KO.map((option) => (
          <option key={option} value={option}>
            {t(`options.relationships.${option}`)}
          </option>
        ))}
      </TextInput>
      {isOther && (
        <DraftTextField
          path="relationship_other"
          label={t('parties.relationshipOther')}
          value={freeText}
          onValueChange={(next) => setField('relationship', next.trim() ? next : OTHER_RELATIONSHIP)}
        />
      )}
    </>
  );
}
