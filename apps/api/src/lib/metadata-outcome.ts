/**
 * What became of an upload's metadata, stored with the file (`files.metadata_status`):
 * - `removed`: the type can carry metadata, and the stored bytes keep only what the content needs;
 * - `none`: the type has no place for metadata (plain text);
 * - `unremovable`: we could not make sure (a damaged, encrypted or signed file, a format we cannot edit,
 *   or the work ran out of time). Such a file is stored as uploaded and must not back an anonymous report.
 */
export type MetadataOutcome = 'removed' | 'none' | 'unremovable';

/** Thrown by a stripper that cannot vouch for its output; the upload's outcome is then `unremovable`. */
export class UnremovableMetadataError extends Error {}

export function unremovable(reason: string): never {
  throw new UnremovableMetadataError(reason);
}
