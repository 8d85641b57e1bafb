import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useDocumentTitle } from '../../components/page-title';
import { paths } from '../../config/paths';
import { useSiteInfo } from '../../lib/site-info';
import './policy-copy';
import './policy-document.css';

interface Section {
  heading: string;
  paragraphs?: string[];
  items?: string[];
  /** The operator's name and contact follow this section's text. */
  operator?: boolean;
}

/**
 * /privacy and /terms: plain HTML like the landing page that links them. The operator's name and contact come
 * from the server's configuration (GET /api/v1/site/), so each installation's documents name who runs it.
 */
export function PolicyDocument({ kind }: { kind: 'privacy' | 'terms' }) {
  const { t } = useTranslation();
  const site = useSiteInfo();
  const title = t(`policies.${kind}.title`);
  useDocumentTitle(title);
  const operator = site?.operator_name ?? t('policies.loading');
  const sections = t(`policies.${kind}.sections`, { returnObjects: true }) as unknown as Section[];
  const other = kind === 'privacy' ? paths.terms : paths.privacy;

  return (
    <article className="shell-container policy" aria-labelledby="policy-title" data-testid={`policy-${kind}`}>
      <h1 id="policy-title" className="policy__title">
        {title}
      </h1>
      <p className="policy__intro">{t(`policies.${kind}.intro`, { operator })}</p>
      {sections.map((section) => (
        <section key={section.heading} className="policy__section">
          <h2>{section.heading}</h2>
          {section.paragraphs?.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {section.items && (
            <ul>
              {section.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          )}
          {section.operator && (
            <dl className="policy__operator" aria-busy={!site}>
              <dt>{t('policies.operatorLabel')}</dt>
              <dd data-testid="policy-operator-name">{operator}</dd>
              <dt>{t('policies.contactLabel')}</dt>
              <dd data-testid="policy-operator-contact">{site?.operator_contact ?? t('policies.loading')}</dd>
            </dl>
          )}
        </section>
      ))}
      <p className="policy__effective">{t('policies.effective')}</p>
      <p className="policy__links">
        <RouterLink to={other.to()}>
          {t(kind === 'privacy' ? 'policies.otherTerms' : 'policies.otherPrivacy')}
        </RouterLink>
        <RouterLink to={paths.index.to()}>{t('policies.home')}</RouterLink>
      </p>
    </article>
  );
}
