import { REPORTER_TYPES, type ReporterReportType, STEPS_BY_TYPE } from '@ansim/shared/constants';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { AnonymityFacts } from '../../../components/anonymity-facts';
import { PlainAlert } from '../../../components/form/form-alert';
import { useCurrentUser } from '../../../components/header/use-current-user';
import { Icon, type IconName } from '../../../components/icons';
import { PageShell } from '../../../components/page-shell';
import { pageSections, paths } from '../../../config/paths';
import { useIsLoggedIn } from '../../../lib/login-state';
import { useReportForm } from '../../../stores/report-form-store';
import '../../../locales/report-copy';
import './report-type-page.css';
import { reportTypeLabel } from '../../../lib/report-type-labels';

const ICONS: Record<ReporterReportType, IconName> = {
  anonym: 'visibilityOffOutlined',
  brief: 'campaignOutlined',
  formal: 'descriptionOutlined',
};

const FACTS = ['sees', 'notSees', 'next'] as const;

/** What the company will and will not see, and what happens next: said plainly before anything is typed. */
function TypeFacts({ type }: { type: ReporterReportType }) {
  const { t } = useTranslation();
  return (
    <dl className="type-facts">
      {FACTS.map((fact) => (
        <div key={fact}>
          <dt className="plain-body2 type-facts__term">{t(`report.facts.${fact}`)}</dt>
          <dd className="plain-body2 plain-text-secondary">{t(`report.typeFacts.${type}.${fact}`)}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function ReportTypePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const current = useReportForm((state) => state.form.report_type);
  const setReportType = useReportForm((state) => state.setReportType);
  const isLoggedIn = useIsLoggedIn();
  const { data: user } = useCurrentUser();
  // Brief and formal reports go to the account's company: someone without one learns it here, with what to
  // do, before typing anything (the server would refuse the submission with NO_COMPANY).
  const hasNoCompany = isLoggedIn && user !== undefined && user.company === null;

  const choose = (type: ReporterReportType) => {
    setReportType(type);
    navigate(paths.reportT.to());
  };

  return (
    <PageShell title={t('report.title')} subtitle={t('report.subtitle')} maxWidth="lg">
      {hasNoCompany && (
        <PlainAlert
          severity="warning"
          className="report-no-company"
          data-testid="report-no-company"
          title={<h2 className="plain-alert__title">{t('report.noCompanyTitle')}</h2>}
        >
          {t('report.noCompany')}{' '}
          <RouterLink className="plain-link" to={`${paths.accountSecurity.to()}#${pageSections.joinCompany}`}>
            {t('report.noCompanyJoin')}
          </RouterLink>
        </PlainAlert>
      )}
      <div className="report-types">
        {REPORTER_TYPES.map((type) => {
          const label = reportTypeLabel(t, type);
          const isCurrent = current === type;
          return (
            <article
              key={type}
              className={`plain-surface report-type${isCurrent ? ' report-type--current' : ''}`}
            >
              <button
                type="button"
                className="report-type__action"
                onClick={() => choose(type)}
                aria-label={t('report.choose', { type: label })}
                data-testid={`report-type-${type}`}
              >
                <span className="report-type__head">
                  <Icon name={ICONS[type]} className="report-type__icon" />
                  <h2 className="report-type__title">{label}</h2>
                  {isCurrent && <span className="plain-chip">{t('report.selected')}</span>}
                </span>
                <p className="report-type__summary plain-text-secondary">{t(`report.types.${type}`)}</p>
                <TypeFacts type={type} />
                <p className="plain-body2 plain-text-secondary report-type__steps">
                  {t('report.stepCount', { count: STEPS_BY_TYPE[type].length })}
                </p>
              </button>
            </article>
          );
        })}
      </div>
      {!isLoggedIn && (
        <p className="plain-text-secondary report-no-account" data-testid="report-no-account">
          {t('anonymous.chooserNoAccount')}{' '}
          <RouterLink className="plain-link" to={paths.receipt.to()}>
            {t('anonymous.receiptLink')}
          </RouterLink>
        </p>
      )}
      <div className="report-facts">
        <AnonymityFacts showNamedNote />
      </div>
    </PageShell>
  );
}
