import { REPORT_LIMITS } from '@ansim/shared/report-form-options';
import { useTranslation } from 'react-i18next';
import { DraftTextField } from '../../../components/form/draft-fields';
import { RepeatableSection } from '../../../components/form/repeatable-section';
import { useListField } from '../components/report-fields';

/** Anonymous step 4: what worries the reporter about how the case is handled, and what they ask for. */
export function ConcernsStep() {
  const { t } = useTranslation();
  const { items, update, add, remove } = useListField('concerns');
  return (
    <RepeatableSection
      path="concerns"
      count={items.length}
      max={REPORT_LIMITS.concerns}
      itemTitle={(index) => t('concerns.item', { number: index + 1 })}
      addLabel={t('concerns.add')}
      emptyText={t('concerns.empty')}
      firstFieldPath={(index) => `concerns.${index}.concern`}
      onAdd={() => add({ concern: '', companyRequest: '' })}
      onRemove={remove}
      renderItem={(index) => {
        const item = items[index]!;
        return (
          <>
            <DraftTextField
              path={`concerns.${index}.concern`}
              label={t('concerns.concern')}
              helperText={t('concerns.concernHelp')}
              required
              multiline
              minRows={3}
              value={item.concern}
              onValueChange={(concern) => update(index, { concern })}
            />
            <DraftTextField
              path={`concerns.${index}.companyRequest`}
              label={t('concerns.companyRequest')}
              helperText={t('concerns.companyRequestHelp')}
              multiline
              minRows={2}
              value={item.companyRequest}
              onValueChange={(companyRequest) => update(index, { companyRequest })}
            />
          </>
        );
      }}
    />
  );
}
