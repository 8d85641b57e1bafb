import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteInfo } from '../lib/site-info';
import '../locales/anonymous-copy';

const CAN = ['content', 'thread'] as const;
const CANNOT = ['identity', 'account', 'metadata', 'fileName', 'mail'] as const;

/** Who runs this installation, from the server's configuration; nothing is shown until it is known. */
export function OperatorLine() {
  const { t } = useTranslation();
  const site = useSiteInfo();
  if (!site?.operator_name) return null;
  return (
    <p className="plain-body2 plain-text-secondary" data-testid="site-operator">
      {t('anonymous.facts.operator', { name: site.operator_name })}
      {site.operator_contact &&
        ` · ${t('anonymous.facts.operatorContact', { contact: site.operator_contact })}`}
    </p>
  );
}

/**
 * What the company can and cannot learn from an anonymous report, in plain words (R-ANON-8), and who
 * operates the service. Plain HTML (styles/plain-controls.css): /report draws without MUI. Every "cannot" line is a defence of docs/threat-model.md.
 */
export function AnonymityFacts({ showNamedNote = false }: { showNamedNote?: boolean }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <section
      className="plain-surface anonymity-facts"
      aria-labelledby={titleId}
      data-testid="anonymity-facts"
    >
      <h2 id={titleId} className="anonymity-facts__title">
        {t('anonymous.facts.title')}
      </h2>
      <div className="anonymity-facts__lists">
        <FactList
          title={t('anonymous.facts.canTitle')}
          items={CAN.map((key) => t(`anonymous.facts.can.${key}`))}
        />
        <FactList
          title={t('anonymous.facts.cannotTitle')}
          items={CANNOT.map((key) => t(`anonymous.facts.cannot.${key}`))}
        />
      </div>
      <p className="plain-body2 plain-text-secondary anonymity-facts__caution">
        {t('anonymous.facts.caution')}
      </p>
      <p className="plain-body2 plain-text-secondary anonymity-facts__note">{t('anonymous.facts.network')}</p>
      {showNamedNote && (
        <p className="plain-body2 plain-text-secondary anonymity-facts__note">
          {t('anonymous.facts.namedNote')}
        </p>
      )}
      <div className="anonymity-facts__operator">
        <OperatorLine />
      </div>
    </section>
  );
}

function FactList({ title, items }: { title: string; items: string[] }) {
  const id = useId();
  return (
    <div>
      <p id={id} className="anonymity-facts__list-title">
        {title}
      </p>
      <ul aria-labelledby={id} className="anonymity-facts__list">
        {items.map((item) => (
          <li className="plain-body2" key={item}>
            {item}
          </li>
        ))}
      </ul>
    </div>
  );
}
