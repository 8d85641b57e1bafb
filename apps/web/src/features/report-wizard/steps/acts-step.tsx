import { REPORT_LIMITS } from '@ansim/shared/report-form-options';
import { useTranslation } from 'react-i18next';
import { DraftTextField } from '../../../components/form/draft-fields';
import { RepeatableSection } from '../../../components/form/repeatable-section';
import { deleteFilesOf } from '../components/remove-with-files';
import { ReportEvidenceField } from '../components/report-evidence-field';
import { useListField } from '../components/report-fields';

/** Step 2: each act — when, where, what happened — with its evidence files. */
export function ActsStep() {
  const { t } = useTranslation();
  const { items, update, add, remove } = useListField('acts');
  return (
    <RepeatableSection
      path="acts"
      count={items.length}
      max={REPORT_LIMITS.acts}
      itemTitle={(index) => t('acts.item', { number: index + 1 })}
      addLabel={t('acts.add')}
      emptyText={t('acts.empty')}
      firstFieldPath={(index) => `acts.${index}.date`}
      onAdd={() => add({ date: '', location: '', description: '', evidences: null })}
      onRemove={(index) => {
        deleteFilesOf(items[index]);
        remove(index);
      }}
      renderItem={(index) => {
        const act = items[index]!;
        return (
          <>
            <DraftTextField
              path={`acts.${index}.date`}
              label={t('acts.date')}
              helperText={t('acts.dateHelp')}
              required
              value={act.date}
              onValueChange={(date) => update(index, { date })}
            />
            <DraftTextField
              path={`acts.${index}.location`}
              label={t('acts.location')}
              helperText={t('acts.locationHelp')}
              value={act.location}
              onValueChange={(location) => update(index, { location })}
            />
            <DraftTextField
              path={`acts.${index}.description`}
              label={t('acts.description')}
              helperText={t('acts.descriptionHelp')}
              required
              multiline
              minRows={4}
              value={act.description}
              onValueChange={(description) => update(index, { description })}
            />
            <ReportEvidenceField list="acts" index={index} />
          </>
        );
      }}
    />
  );
}
