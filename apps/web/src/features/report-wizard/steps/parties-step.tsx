import { RELATIONSHIP_OPTIONS_KO, REPORTER_KINDS } from '@ansim/shared/report-form-options';
import { useTranslation } from 'react-i18next';
import { PlainAlert } from '../../../components/form/form-alert';
import { PlainDraftTextField, PlainRadioGroupField } from '../../../components/form/plain-draft-fields';
import { PlainSelectInput } from '../../../components/form/plain-text-input';
import { fieldId } from '../../../components/form/step-errors';
import { StepSection } from '../../../components/form/step-section';
import { useReportForm } from '../../../stores/report-form-store';
import { FormField } from '../components/report-fields';

const OTHER_RELATIONSHIP = '기타';
type RelationshipOption = (typeof RELATIONSHIP_OPTIONS_KO)[number];
const isListedRelationship = (value: string): value is RelationshipOption =>
  (RELATIONSHIP_OPTIONS_KO as readonly string[]).includes(value);

/**
 * Step 1: who reports, who is reported, and how they relate. Anonymous reports never ask who reports. The first
 * page of the wizard draws without MUI, as the server sends it (decisions 0023 and 0025).
 */
export function PartiesStep() {
  const { t } = useTranslation();
  const isAnonymous = useReportForm((state) => state.form.report_type === 'anonym');
  return (
    <div className="parties-step">
      <StepSection title={t('parties.reporterHeading')}>
        {isAnonymous && (
          <PlainAlert severity="info" data-testid="anonym-notice">
            {t('parties.anonymNotice')}
          </PlainAlert>
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
    </div>
  );
}

function ReporterTypeField() {
  const { t } = useTranslation();
  const value = useReportForm((state) => state.form.reporter_type);
  const setField = useReportForm((state) => state.setField);
  return (
    <PlainRadioGroupField
      path="reporter_type"
      label={t('parties.reporterType')}
      options={REPORTER_KINDS}
      labelOf={(kind) => t(`options.reporterKinds.${kind}`)}
      value={value}
      onValueChange={(kind) => setField('reporter_type', kind)}
      required
    />
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
      <PlainSelectInput
        id={fieldId('relationship')}
        label={t('parties.relationship')}
        value={selected}
        onChange={(event) => setField('relationship', event.target.value)}
      >
        <option value="">{t('parties.relationshipPlaceholder')}</option>
        {RELATIONSHIP_OPTIONS_KO.map((option) => (
          <option key={option} value={option}>
            {t(`options.relationships.${option}`)}
          </option>
        ))}
      </PlainSelectInput>
      {isOther && (
        <PlainDraftTextField
          path="relationship_other"
          label={t('parties.relationshipOther')}
          value={freeText}
          onValueChange={(next) => setField('relationship', next.trim() ? next : OTHER_RELATIONSHIP)}
        />
      )}
    </>
  );
}
