import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { createIntake, useIntakeInfo } from '../../../api/intake';
import { AnonymityFacts } from '../../../components/anonymity-facts';
import { CaptchaField, type CaptchaHandle } from '../../../components/form/captcha-field';
import { PlainAlert } from '../../../components/form/form-alert';
import { PageShell } from '../../../components/page-shell';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/messages';
import { isRequestError } from '../../../lib/request-error';
import { isSessionUsable, startIntake, useIntakeToken } from '../../../stores/intake-token';
import { useReportForm } from '../../../stores/report-form-store';
import '../../../locales/anonymous-copy';
import './intake-page.css';

/**
 * /c/{code}: a company's public intake link. Anyone can file an anonymous report here without an account;
 * the captcha and the server's per-address limits stand in for the login (decision 0005).
 */
export default function IntakePage() {
  const { t } = useTranslation();
  const { code = '' } = useParams();
  const navigate = useNavigate();
  const captchaRef = useRef<CaptchaHandle>(null);
  const [captcha, setCaptcha] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const draftType = useReportForm((state) => state.form.report_type);
  const session = useIntakeToken((state) => state.session);
  const info = useIntakeInfo(code);
  const canContinue = draftType === 'anonym' && isSessionUsable(session) && session?.code === code;

  const start = async () => {
    setFailure(null);
    setBusy(true);
    try {
      const grant = await createIntake({ code, captcha });
      const store = useReportForm.getState();
      // Another kind of draft on this device is not carried into an anonymous one.
      if (store.form.report_type && store.form.report_type !== 'anonym') store.reset();
      store.setReportType('anonym');
      useIntakeToken.getState().dismissFilesLost();
      startIntake(grant, code);
      await navigate(paths.reportT.to());
    } catch (error) {
      setFailure(errorText(t, error));
      setCaptcha('');
      captchaRef.current?.reset();
    } finally {
      setBusy(false);
    }
  };

  if (info.status === 'pending') {
    return (
      <PageShell title={t('anonymous.intake.loading')} maxWidth="md">
        <div className="intake-stack" aria-busy="true">
          <div className="plain-skeleton" style={{ height: 96 }} />
          <div className="plain-skeleton" style={{ height: 200 }} />
        </div>
      </PageShell>
    );
  }
  if (info.status === 'error') {
    const notFound = isRequestError(info.error, 'NOT_FOUND');
    return (
      <PageShell title={notFound ? t('anonymous.intake.notFoundTitle') : t('routeError.title')} maxWidth="sm">
        <p className="intake-not-found" data-testid="intake-not-found">
          {notFound ? t('anonymous.intake.notFoundBody') : errorText(t, info.error)}
        </p>
        <div className="intake-actions">
          <RouterLink className="shell-button shell-button--contained" to={paths.index.to()}>
            {t('notFound.home')}
          </RouterLink>
          <RouterLink className="shell-button shell-button--outlined" to={paths.receipt.to()}>
            {t('anonymous.receiptLink')}
          </RouterLink>
        </div>
      </PageShell>
    );
  }

  const company = info.data.company.name;
  return (
    <PageShell
      title={t('anonymous.intake.title', { company })}
      subtitle={t('anonymous.intake.subtitle')}
      maxWidth="md"
    >
      <div className="intake-stack">
        {(info.data.help_text || info.data.notice_contact) && (
          <section className="plain-surface intake-section" aria-labelledby="intake-help">
            <h2 id="intake-help" className="intake-section__title">
              {t('anonymous.intake.helpTitle')}
            </h2>
            {info.data.help_text && (
              <p className="intake-help-text" data-testid="intake-help-text">
                {info.data.help_text}
              </p>
            )}
            {info.data.notice_contact && (
              <p
                className={info.data.help_text ? 'intake-contact intake-contact--after' : 'intake-contact'}
                data-testid="intake-notice-contact"
              >
                <strong>{t('anonymous.intake.contactLabel')}</strong> {info.data.notice_contact}
              </p>
            )}
          </section>
        )}
        <AnonymityFacts />
        <section className="plain-surface intake-section" aria-labelledby="intake-how">
          <h2 id="intake-how" className="intake-section__title">
            {t('anonymous.intake.howTitle')}
          </h2>
          <p className="intake-how">{t('anonymous.intake.how')}</p>
          {canContinue ? (
            <RouterLink
              className="shell-button shell-button--contained shell-button--large"
              to={paths.reportT.to()}
            >
              {t('anonymous.intake.continue')}
            </RouterLink>
          ) : (
            <div className="intake-start">
              {failure && <PlainAlert role="alert">{failure}</PlainAlert>}
              <CaptchaField ref={captchaRef} onChange={setCaptcha} />
              <div>
                <button
                  type="button"
                  className="shell-button shell-button--contained shell-button--large"
                  disabled={!captcha || busy}
                  onClick={() => void start()}
                  data-testid="intake-start"
                >
                  {busy ? t('anonymous.intake.starting') : t('anonymous.intake.start')}
                </button>
                {!captcha && (
                  <p className="plain-body2 plain-text-secondary intake-captcha-needed">
                    {t('anonymous.intake.captchaNeeded')}
                  </p>
                )}
              </div>
            </div>
          )}
        </section>
        <p className="plain-body2 plain-text-secondary">
          {t('anonymous.intake.alreadyFiled')}{' '}
          <RouterLink className="plain-link" to={paths.receipt.to()}>
            {t('anonymous.receiptLink')}
          </RouterLink>
        </p>
      </div>
    </PageShell>
  );
}
