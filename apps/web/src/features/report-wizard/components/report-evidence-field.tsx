import type { FileView } from '@ansim/shared/contract/file';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { deleteEvidence } from '../../../api/delete-evidence';
import { noteIntakeFailure } from '../../../api/draft-headers';
import { ownFilesQuery, useOwnFiles } from '../../../api/evidence-files';
import { uploadEvidence } from '../../../api/upload-evidence';
import { EvidenceField } from '../../../components/form/evidence-field';
import { useReportForm } from '../../../stores/report-form-store';

type EvidenceList = 'acts' | 'harms';

/** Reads and writes one entry's `evidences` through the store's latest state: uploads finish at any time. */
function editEvidences(list: EvidenceList, index: number, change: (ids: string[]) => string[]) {
  const state = useReportForm.getState();
  const items = state.form[list] as { evidences: string[] | null }[];
  if (!items[index]) return;
  const next = items.map((item, i) =>
    i === index ? { ...item, evidences: change(item.evidences ?? []) } : item,
  );
  state.setField(list, next as never);
}

/** Evidence files of one act or harm, stored among the reporter's own files (or the anonymous intake's). */
export function ReportEvidenceField({ list, index }: { list: EvidenceList; index: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isAnonymous = useReportForm((state) => state.form.report_type === 'anonym');
  const ids = useReportForm(
    (state) => (state.form[list] as { evidences: string[] | null }[])[index]?.evidences ?? null,
  );
  const { data: files } = useOwnFiles();
  return (
    <EvidenceField
      path={`${list}.${index}.evidences`}
      ids={ids ?? []}
      editIds={(change) => editEvidences(list, index, change)}
      files={files}
      upload={async (file, onProgress) => {
        const stored = await uploadEvidence(file, onProgress);
        queryClient.setQueryData<FileView[]>(ownFilesQuery().queryKey, (current) => [
          ...(current ?? []),
          stored,
        ]);
        return stored;
      }}
      remove={async (id) => {
        await deleteEvidence(id);
        queryClient.setQueryData<FileView[]>(ownFilesQuery().queryKey, (current) =>
          current?.filter((file) => file.id !== id),
        );
      }}
      copy="evidence"
      // The same file once sent under the reporter's account joins the two (docs/decisions/0029).
      help={
        isAnonymous
          ? `${t('evidence.help')} ${t('evidence.anonymHint')} ${t('evidence.anonymLinkNote')}`
          : t('evidence.help')
      }
      testIdPrefix="evidence"
      inputTestId={`evidence-input-${list}-${index}`}
      finishedAs="bar"
      flagsUnremovable={isAnonymous}
      warnsUnremovable={!isAnonymous}
      // An expired intake token is explained once by the wizard, which asks for the files again.
      isExplainedElsewhere={(failure) => noteIntakeFailure(failure)}
    />
  );
}
