import { useTranslation } from 'react-i18next';
import { WitnessesEditor } from './witnesses-editor';

/** Brief step 4: people who could confirm what happened, suggested to the manager, and other matters. */
export function WitnessSuggestionStep() {
  const { t } = useTranslation();
  return <WitnessesEditor witnessHelp={t('witnesses.suggestionHelp')} />;
}
