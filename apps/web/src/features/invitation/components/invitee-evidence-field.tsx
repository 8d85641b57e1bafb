import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EvidenceField } from '../../../components/form/evidence-field';
import {
  deleteInviteeFile,
  type InviteeFile,
  listInviteeFiles,
  uploadInviteeFile,
} from '../api/invitation-api';
import { useStatementContext, useStatementDraft } from '../statement-context';
import { statementDraftStore } from '../statement-draft-store';

/** The files this link uploaded; the key names the kind, never the token. */
const inviteeFilesKey = (kind: string) => ['api', 'v1', 'file', { invitation: kind }] as const;

/**
 * Evidence of the invitee's own, uploaded with the link's token: the files belong to the invitation, not to
 * any account.
 */
export function InviteeEvidenceField({ field }: { field: 'defendant_evidences' | 'reference_evidences' }) {
  const { t } = useTranslation();
  const { kind, token } = useStatementContext();
  const queryClient = useQueryClient();
  const ids = useStatementDraft((state) => state.form[field]) ?? [];
  const files = useQuery({
    queryKey: inviteeFilesKey(kind),
    queryFn: ({ signal }) => listInviteeFiles(token, signal),
  });
  return (
    <EvidenceField
      path={field}
      ids={ids}
      editIds={(change) => {
        const store = statementDraftStore(kind).getState();
        store.setField(field, change(store.form[field] ?? []));
      }}
      files={files.data}
      upload={async (file, onProgress) => {
        const stored = await uploadInviteeFile(token, file, onProgress);
        queryClient.setQueryData<InviteeFile[]>(inviteeFilesKey(kind), (current) => [
          ...(current ?? []),
          stored,
        ]);
        return stored;
      }}
      remove={async (id) => {
        await deleteInviteeFile(token, id);
        queryClient.setQueryData<InviteeFile[]>(inviteeFilesKey(kind), (current) =>
          current?.filter((file) => file.id !== id),
        );
      }}
      copy="invitation.evidence"
      help={t(`invitation.evidence.help.${kind}`)}
      testIdPrefix="invitee-evidence"
      inputTestId={`invitee-evidence-input-${field}`}
      finishedAs="caption"
    />
  );
}
