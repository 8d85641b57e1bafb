import { useTranslation } from 'react-i18next';
import { WitnessesEditor } from './witnesses-editor';

/** Formal step 5: witnesses the manager will invite to give a statement, and other matters. */
export function WitnessesStep() {
  const { t } = useTranslation();
  return <WitnessesEditor witnessHelp={t('witnesses.formalHelp')} />;
}
