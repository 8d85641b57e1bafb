import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Icon, type IconName } from '../../components/icons';
import { useDocumentTitle } from '../../components/page-title';
import { paths } from '../../config/paths';
import { useSiteInfo } from '../../lib/site-info';
import './landing-copy';
import './landing-page.css';

/** R-WEB-11: the hero is exactly 550px tall (landing-page.css sets it; the e2e test measures it). */
export const HERO_HEIGHT_PX = 550;

const VALUES: ReadonlyArray<{ key: string; icon: IconName }> = [
  { key: 'trust', icon: 'shieldOutlined' },
  { key: 'transparency', icon: 'timelineOutlined' },
  { key: 'anonymity', icon: 'visibilityOffOutlined' },
];

interface Step {
  title: string;
  body: string;
}
interface TypeView {
  key: string;
  title: string;
  sees: string;
  notSeesLabel: string;
  notSees: string;
}
interface Question {
  q: string;
  a: string;
}
interface HelpLine {
  name: string;
  phone: string;
  body: string;
}

/**
 * Plain semantic HTML with the theme's tokens (landing-page.css): the first screen most people see loads without
 * MUI or Emotion, which keeps its JavaScript under the 150 KB budget of R-PERF-1 (docs/decisions/0001). The FAQ
 * uses <details>, which needs no script at all.
 */
export default function LandingPage() {
  const { t } = useTranslation();
  const site = useSiteInfo();
  useDocumentTitle('');
  const list = <T,>(key: string) => t(key, { returnObjects: true }) as unknown as T[];

  return (
    <>
      <section aria-labelledby="hero-title" data-testid="hero" className="landing-hero">
        <div className="shell-container">
          <h1 id="hero-title" className="landing-hero__title">
            {t('landing.title')}
          </h1>
          <p className="landing-hero__subtitle">{t('landing.subtitle')}</p>
          <RouterLink to={paths.report.to()} className="landing-hero__cta">
            {t('landing.cta')}
          </RouterLink>
        </div>
      </section>
      <section aria-labelledby="values-title" className="shell-container landing-section">
        <h2 id="values-title" className="landing-section__title">
          {t('landing.valuesHeading')}
        </h2>
        <div className="landing-grid landing-grid--3">
          {VALUES.map(({ key, icon }) => (
            <article key={key} className="landing-card">
              <Icon name={icon} className="landing-card__icon" />
              <h3 className="landing-card__title">{t(`landing.${key}.title`)}</h3>
              <p className="landing-card__body">{t(`landing.${key}.body`)}</p>
            </article>
          ))}
        </div>
      </section>

      <section aria-labelledby="how-title" className="landing-band" data-testid="landing-how">
        <div className="shell-container landing-section">
          <h2 id="how-title" className="landing-section__title">
            {t('landing.how.heading')}
          </h2>
          <ol className="landing-grid landing-grid--4 landing-steps">
            {list<Step>('landing.how.steps').map((step, index) => (
              <li key={step.title} className="landing-card">
                <span className="landing-steps__number" aria-hidden="true">
                  {index + 1}
                </span>
                <h3 className="landing-card__title">{step.title}</h3>
                <p className="landing-card__body">{step.body}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section
        aria-labelledby="sees-title"
        className="shell-container landing-section"
        data-testid="landing-sees"
      >
        <h2 id="sees-title" className="landing-section__title">
          {t('landing.sees.heading')}
        </h2>
        <p className="landing-section__intro">{t('landing.sees.intro')}</p>
        <div className="landing-grid landing-grid--3">
          {list<TypeView>('landing.sees.types').map((type) => (
            <article key={type.key} className="landing-card">
              <h3 className="landing-card__title">{type.title}</h3>
              <dl className="landing-sees">
                <dt>{t('landing.sees.seesLabel')}</dt>
                <dd>{type.sees}</dd>
                <dt>{type.notSeesLabel}</dt>
                <dd>{type.notSees}</dd>
              </dl>
            </article>
          ))}
        </div>
      </section>

      <section aria-labelledby="faq-title" className="landing-band" data-testid="landing-faq">
        <div className="shell-container landing-section landing-section--narrow">
          <h2 id="faq-title" className="landing-section__title">
            {t('landing.faq.heading')}
          </h2>
          <div className="landing-faq">
            {list<Question>('landing.faq.items').map((item) => (
              <details key={item.q} className="landing-faq__item">
                <summary>{item.q}</summary>
                <p>{item.a}</p>
              </details>
            ))}
          </div>
        </div>
      </section>

      <section
        aria-labelledby="help-title"
        className="shell-container landing-section"
        data-testid="landing-help"
      >
        <h2 id="help-title" className="landing-section__title">
          {t('landing.help.heading')}
        </h2>
        <p className="landing-section__intro">{t('landing.help.intro')}</p>
        <ul className="landing-grid landing-grid--3 landing-help">
          {list<HelpLine>('landing.help.items').map((line) => (
            <li key={line.phone} className="landing-card">
              <h3 className="landing-card__title">{line.name}</h3>
              <a
                className="landing-help__phone"
                href={`tel:${line.phone.replace(/-/g, '')}`}
                aria-label={t('landing.help.callLabel', { name: line.name, phone: line.phone })}
              >
                {line.phone}
              </a>
              <p className="landing-card__body">{line.body}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="operator-title" className="landing-band" data-testid="landing-operator">
        <div className="shell-container landing-section landing-section--narrow">
          <h2 id="operator-title" className="landing-section__title">
            {t('landing.operator.heading')}
          </h2>
          <p className="landing-section__intro">{t('landing.operator.body')}</p>
          <dl className="landing-operator" aria-busy={!site}>
            <dt>{t('landing.operator.name')}</dt>
            <dd data-testid="operator-name">{site?.operator_name ?? t('landing.operator.loading')}</dd>
            <dt>{t('landing.operator.contact')}</dt>
            <dd data-testid="operator-contact">{site?.operator_contact ?? t('landing.operator.loading')}</dd>
          </dl>
          <p className="landing-operator__links">
            <RouterLink to={paths.privacy.to()}>{t('landing.operator.privacy')}</RouterLink>
            <RouterLink to={paths.terms.to()}>{t('landing.operator.terms')}</RouterLink>
          </p>
        </div>
      </section>
    </>
  );
}
