import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Icon, type IconName } from '../../components/icons';
import { useDocumentTitle } from '../../components/page-title';
import { paths } from '../../config/paths';
import './landing-page.css';

/** Spec §9: the hero is exactly 550px tall (landing-page.css sets it; the e2e test measures it). */
export const HERO_HEIGHT_PX = 550;

const VALUES: ReadonlyArray<{ key: string; icon: IconName }> = [
  { key: 'trust', icon: 'shieldOutlined' },
  { key: 'transparency', icon: 'timelineOutlined' },
  { key: 'anonymity', icon: 'visibilityOffOutlined' },
];

/**
 * Plain semantic HTML with the theme's tokens (landing-page.css): the first screen most people see loads without
 * MUI or Emotion, which keeps its JavaScript under the 150 KB budget of issue 3 (docs/decisions/0001).
 */
export default function LandingPage() {
  const { t } = useTranslation();
  useDocumentTitle('');
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
      <section aria-labelledby="values-title" className="shell-container landing-values">
        <h2 id="values-title" className="landing-values__title">
          {t('landing.valuesHeading')}
        </h2>
        <div className="landing-values__grid">
          {VALUES.map(({ key, icon }) => (
            <article key={key} className="landing-card">
              <Icon name={icon} className="landing-card__icon" />
              <h3 className="landing-card__title">{t(`landing.${key}.title`)}</h3>
              <p className="landing-card__body">{t(`landing.${key}.body`)}</p>
            </article>
          ))}
        </div>
      </section>
    </>
  );
}
