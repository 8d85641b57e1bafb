import { deleteEvidence } from '../../../api/delete-evidence';

/**
 * Removing an act or harm also deletes the files only it cited: evidence the reporter took back should not
 * stay on the server. Best effort — the entry is removed from the draft whatever the server says.
 */
export function deleteFilesOf(item: { evidences: string[] | null } | undefined): void {
  for (const id of item?.evidences ?? []) {
    deleteEvidence(id).catch((error) => console.warn('Could not delete a removed evidence file', error));
  }
}
