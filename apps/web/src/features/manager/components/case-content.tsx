import type { ManagerCase } from '@ansim/shared/contract/manager';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/datetime';
import { EvidenceLinks } from './evidence-links';
import { harmLabel, protectionLabel, relationshipLabel, reporterKindLabel, wishLabel } from './labels';
import { Field, Subheading } from './section';

const fieldGrid = {
  display: 'grid',
  gap: 0,
  gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
  m: 0,
} as const;

/** The reporter's account, section by section in the wizard's order (docs/requirements.md R-WIZ-4 fields). */
export function CaseContent({ report }: { report: ManagerCase }) {
  const { t, i18n } = useTranslation();
  const form = report.form;
  const type = report.report_type;
  const showConcerns = type === 'anonym' || form.concerns.length > 0;
  const showProtection =
    type === 'formal' || form.protection_requests.length > 0 || Boolean(form.protection_etc);
  const showWitnesses = type === 'brief' || type === 'formal' || form.witnesses.length > 0;

  return (
    <Box sx={{ display: 'grid', gap: 1 }} data-testid="case-content">
      <Subheading>{t('manager.case.parties')}</Subheading>
      <Typography variant="body2" sx={{ fontWeight: 700, mb: 1 }}>
        {t('manager.case.reporter')}
      </Typography>
      {report.reporter === null ? (
        <Alert severity="info" icon={false} sx={{ mb: 1 }} data-testid="anonymous-reporter">
          <strong>{t('manager.case.anonymousReporter')}</strong>
          <br />
          {t('manager.case.anonymousNote')}
        </Alert>
      ) : (
        <Box component="dl" sx={fieldGrid}>
          <Field label={t('manager.case.name')}>{report.reporter.name}</Field>
          <Field label={t('manager.case.email')}>{report.reporter.email}</Field>
          <Field label={t('manager.case.reporterKind')}>
            {form.reporter_type ? reporterKindLabel(t, form.reporter_type) : ''}
          </Field>
          <Field label={t('manager.case.role')}>{form.reporter_role}</Field>
          <Field label={t('manager.case.department')}>{form.reporter_department}</Field>
          <Field label={t('manager.case.tenure')}>{form.reporter_tenure}</Field>
        </Box>
      )}
      <Typography variant="body2" sx={{ fontWeight: 700, mb: 1 }}>
        {t('manager.case.accused')}
      </Typography>
      <Box component="dl" sx={fieldGrid}>
        <Field label={t('manager.case.name')}>{form.perpetrator_name}</Field>
        <Field label={t('manager.case.email')}>{form.perpetrator_email ?? ''}</Field>
        <Field label={t('manager.case.role')}>{form.perpetrator_role}</Field>
        <Field label={t('manager.case.department')}>{form.perpetrator_department}</Field>
        <Field label={t('manager.case.tenure')}>{form.perpetrator_tenure}</Field>
        <Field label={t('manager.case.relationship')}>{relationshipLabel(t, form.relationship)}</Field>
      </Box>

      <Divider />
      <Subheading>{t('manager.case.acts')}</Subheading>
      {form.acts.length === 0 && <Typography color="text.secondary">{t('manager.case.none')}</Typography>}
      {form.acts.map((act, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: acts are an ordered list without ids.
        <Box key={index} sx={{ mb: 2 }}>
          <Typography variant="body2" sx={{ fontWeight: 700 }}>
            {t('manager.case.actN', { n: index + 1 })}
          </Typography>
          <Box component="dl" sx={fieldGrid}>
            <Field label={t('manager.case.actDate')}>{act.date}</Field>
            <Field label={t('manager.case.actLocation')}>{act.location}</Field>
          </Box>
          <Box component="dl" sx={{ m: 0 }}>
            <Field label={t('manager.case.actDescription')}>{act.description}</Field>
          </Box>
          <EvidenceLinks ids={act.evidences} files={report.files} />
        </Box>
      ))}

      <Divider />
      <Subheading>{t('manager.case.harms')}</Subheading>
      {form.harms.length === 0 && <Typography color="text.secondary">{t('manager.case.none')}</Typography>}
      {form.harms.map((harm, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: harms are an ordered list without ids.
        <Box key={index} sx={{ mb: 1.5 }}>
          <Box component="dl" sx={{ m: 0 }}>
            <Field label={harm.type ? harmLabel(t, harm.type) : t('manager.case.harmN', { n: index + 1 })}>
              {harm.description}
            </Field>
          </Box>
          <EvidenceLinks ids={harm.evidences} files={report.files} />
        </Box>
      ))}
      <Typography variant="body2" sx={{ fontWeight: 700, mb: 1 }}>
        {t('manager.case.wishes')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        {form.wishes.length === 0 && <Typography color="text.secondary">{t('manager.case.none')}</Typography>}
        {form.wishes.map((wish) => (
          <Chip key={wish} label={wishLabel(t, wish)} size="small" />
        ))}
      </Box>
      {form.wish_etc && (
        <Box component="dl" sx={{ m: 0 }}>
          <Field label={t('manager.case.wishEtc')}>{form.wish_etc}</Field>
        </Box>
      )}

      {showConcerns && (
        <>
          <Divider />
          <Subheading>{t('manager.case.concerns')}</Subheading>
          {form.concerns.length === 0 && (
            <Typography color="text.secondary">{t('manager.case.none')}</Typography>
          )}
          {form.concerns.map((concern, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: concerns are an ordered list without ids.
            <Box component="dl" key={index} sx={fieldGrid}>
              <Field label={t('manager.case.concern')}>{concern.concern}</Field>
              <Field label={t('manager.case.companyRequest')}>{concern.companyRequest}</Field>
            </Box>
          ))}
        </>
      )}

      {showProtection && (
        <>
          <Divider />
          <Subheading>{t('manager.case.protection')}</Subheading>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 1 }}>
            {form.protection_requests.length === 0 && (
              <Typography color="text.secondary">{t('manager.case.none')}</Typography>
            )}
            {form.protection_requests.map((request) => (
              <Chip key={request} label={protectionLabel(t, request)} size="small" />
            ))}
          </Box>
          {form.protection_etc && (
            <Box component="dl" sx={{ m: 0 }}>
              <Field label={t('manager.case.protectionEtc')}>{form.protection_etc}</Field>
            </Box>
          )}
        </>
      )}

      {showWitnesses && (
        <>
          <Divider />
          <Subheading>{t('manager.case.witnesses')}</Subheading>
          {form.witnesses.length === 0 && (
            <Typography color="text.secondary">{t('manager.case.none')}</Typography>
          )}
          {form.witnesses.map((witness, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: witnesses are an ordered list; the index is their id.
            <Fragment key={index}>
              <Typography variant="body2" sx={{ fontWeight: 700 }}>
                {t('manager.case.witnessN', { n: index + 1 })}
              </Typography>
              <Box component="dl" sx={fieldGrid}>
                <Field label={t('manager.case.name')}>{witness.name}</Field>
                <Field label={t('manager.case.email')}>{witness.email ?? ''}</Field>
                <Field label={t('manager.case.department')}>{witness.department}</Field>
                <Field label={t('manager.case.position')}>{witness.position}</Field>
                {witness.email_sent_at && (
                  <Field label={t('manager.case.emailSentAt')}>
                    {formatDateTime(witness.email_sent_at, i18n.language)}
                  </Field>
                )}
              </Box>
            </Fragment>
          ))}
        </>
      )}

      {(showWitnesses || form.extra_info) && (
        <>
          <Divider />
          <Subheading>{t('manager.case.extraInfo')}</Subheading>
          <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {form.extra_info || t('manager.case.none')}
          </Typography>
        </>
      )}
    </Box>
  );
}
