import { STEPS_BY_TYPE, type StepKey } from '@ansim/shared/constants';
import type { ReportForm } from '@ansim/shared/report-form';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

interface SummaryProps {
  form: ReportForm;
  /** h2 on a page of its own, h3 inside the wizard's step card. */
  headingLevel: 'h2' | 'h3';
  fileName: (id: string) => string;
  /** A download link per evidence file; without it names are listed as text. */
  fileHref?: (id: string) => string;
  /** Offers a "change" button per step (the wizard's review screen). */
  onEditStep?: (stepIndex: number) => void;
}

function Field({ label, value, emptyText }: { label: string; value: React.ReactNode; emptyText?: string }) {
  const { t } = useTranslation();
  const empty = value === '' || value === null || value === undefined;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '10rem 1fr' }, gap: { xs: 0, sm: 2 } }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography
        component="dd"
        sx={{ m: 0, whiteSpace: 'pre-line', overflowWrap: 'anywhere', mb: { xs: 1, sm: 0 } }}
        color={empty ? 'text.secondary' : undefined}
      >
        {empty ? (emptyText ?? t('summary.empty')) : value}
      </Typography>
    </Box>
  );
}

function Fields({ children }: { children: React.ReactNode }) {
  return (
    <Stack component="dl" spacing={1} sx={{ m: 0 }}>
      {children}
    </Stack>
  );
}

function Item({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography sx={{ fontWeight: 700, mb: 1 }}>{title}</Typography>
      {children}
    </Paper>
  );
}

const listOf = (t: TFunction, values: readonly string[], prefix: string) =>
  values.map((value) => t(`${prefix}.${value}`)).join(', ');

/**
 * Everything a report form says, under the titles of its steps: the wizard's review screen and the reporter's
 * own detail page. For an anonymous report it says plainly that the company does not see who filed it.
 */
export function ReportFormSummary({ form, headingLevel, fileName, fileHref, onEditStep }: SummaryProps) {
  const { t } = useTranslation();
  const type = form.report_type;
  if (!type) return null;
  const steps = STEPS_BY_TYPE[type];
  const isAnonymous = type === 'anonym';

  const evidenceList = (ids: string[] | null) =>
    ids && ids.length > 0 ? (
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {ids.map((id) => (
          <li key={id}>
            {fileHref ? (
              <Link href={fileHref(id)} download>
                {fileName(id)}
              </Link>
            ) : (
              fileName(id)
            )}
          </li>
        ))}
      </Box>
    ) : (
      ''
    );

  const sections: Record<StepKey, React.ReactNode> = {
    parties: (
      <Stack spacing={2}>
        {isAnonymous && <Alert severity="info">{t('summary.anonymNote')}</Alert>}
        <Fields>
          <Field
            label={t('parties.reporterType')}
            value={form.reporter_type ? t(`options.reporterKinds.${form.reporter_type}`) : ''}
          />
          {!isAnonymous && (
            <>
              <Field label={t('parties.reporterName')} value={form.reporter_name} />
              <Field label={t('parties.department')} value={form.reporter_department} />
              <Field label={t('parties.role')} value={form.reporter_role} />
              <Field label={t('parties.tenure')} value={form.reporter_tenure} />
            </>
          )}
          <Field label={t('parties.perpetratorName')} value={form.perpetrator_name} />
          <Field label={t('summary.perpetratorDepartment')} value={form.perpetrator_department} />
          <Field label={t('summary.perpetratorRole')} value={form.perpetrator_role} />
          <Field label={t('summary.perpetratorTenure')} value={form.perpetrator_tenure} />
          <Field label={t('parties.perpetratorEmail')} value={form.perpetrator_email ?? ''} />
          <Field
            label={t('parties.relationship')}
            value={
              form.relationship
                ? t(`options.relationships.${form.relationship}`, { defaultValue: form.relationship })
                : ''
            }
          />
        </Fields>
      </Stack>
    ),
    acts: (
      <Stack spacing={1.5}>
        {form.acts.length === 0 && <Typography color="text.secondary">{t('summary.empty')}</Typography>}
        {form.acts.map((act, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id; their order is their identity.
          <Item key={index} title={t('acts.item', { number: index + 1 })}>
            <Fields>
              <Field label={t('acts.date')} value={act.date} />
              <Field label={t('acts.location')} value={act.location} />
              <Field label={t('acts.description')} value={act.description} />
              <Field
                label={t('evidence.label')}
                value={evidenceList(act.evidences)}
                emptyText={t('summary.noFiles')}
              />
            </Fields>
          </Item>
        ))}
      </Stack>
    ),
    harms: (
      <Stack spacing={1.5}>
        {form.harms.map((harm, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id; their order is their identity.
          <Item key={index} title={t('harms.item', { number: index + 1 })}>
            <Fields>
              <Field label={t('harms.type')} value={harm.type ? t(`options.harmTypes.${harm.type}`) : ''} />
              <Field label={t('harms.description')} value={harm.description} />
              <Field
                label={t('evidence.label')}
                value={evidenceList(harm.evidences)}
                emptyText={t('summary.noFiles')}
              />
            </Fields>
          </Item>
        ))}
        <Fields>
          <Field label={t('harms.wishesLegend')} value={listOf(t, form.wishes, 'options.wishes')} />
          <Field label={t('harms.wishEtc')} value={form.wish_etc} />
        </Fields>
      </Stack>
    ),
    concerns: (
      <Stack spacing={1.5}>
        {form.concerns.length === 0 && <Typography color="text.secondary">{t('summary.empty')}</Typography>}
        {form.concerns.map((concern, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id; their order is their identity.
          <Item key={index} title={t('concerns.item', { number: index + 1 })}>
            <Fields>
              <Field label={t('concerns.concern')} value={concern.concern} />
              <Field label={t('concerns.companyRequest')} value={concern.companyRequest} />
            </Fields>
          </Item>
        ))}
      </Stack>
    ),
    witnessSuggestion: null,
    witnesses: null,
    protection: (
      <Fields>
        <Field
          label={t('protection.legend')}
          value={listOf(t, form.protection_requests, 'options.protection')}
        />
        <Field label={t('protection.etc')} value={form.protection_etc} />
      </Fields>
    ),
    reference: null,
    defendantInfo: null,
    defendantStatement: null,
  };
  const witnesses = (
    <Stack spacing={1.5}>
      {form.witnesses.map((witness, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id; their order is their identity.
        <Item key={index} title={t('witnesses.item', { number: index + 1 })}>
          <Fields>
            <Field label={t('witnesses.name')} value={witness.name} />
            <Field label={t('parties.department')} value={witness.department} />
            <Field label={t('parties.role')} value={witness.position} />
            <Field label={t('witnesses.email')} value={witness.email ?? ''} />
          </Fields>
        </Item>
      ))}
      <Fields>
        <Field label={t('witnesses.extraInfo')} value={form.extra_info} />
      </Fields>
    </Stack>
  );
  sections.witnessSuggestion = witnesses;
  sections.witnesses = witnesses;

  return (
    <Stack spacing={4}>
      {steps.map((step, index) => (
        <Box component="section" key={step} aria-labelledby={`summary-${step}`}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
            <Typography
              id={`summary-${step}`}
              variant="h3"
              component={headingLevel}
              sx={{ fontSize: '1.1rem', fontWeight: 700, flex: 1 }}
            >
              {t(`steps.${step}`)}
            </Typography>
            {onEditStep && (
              <Button
                size="small"
                startIcon={<EditOutlinedIcon aria-hidden="true" />}
                onClick={() => onEditStep(index)}
                aria-label={t('summary.editNamed', { step: t(`steps.${step}`) })}
              >
                {t('summary.edit')}
              </Button>
            )}
          </Box>
          {sections[step]}
        </Box>
      ))}
    </Stack>
  );
}
