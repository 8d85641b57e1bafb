import { z } from 'zod';
import { instant } from './common.ts';

/** What metadata removal achieved: an `unremovable` file cannot be cited by an anonymous report. */
export const FILE_METADATA_STATES = ['removed', 'none', 'unremovable'] as const;

/** An uploaded evidence file as its owner sees it (POST and GET /api/v1/file/). */
export const fileViewSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  size: z.number().int(),
  content_type: z.string(),
  sha256: z.string(),
  created_at: instant,
  metadata: z.enum(FILE_METADATA_STATES),
});
export type FileView = z.infer<typeof fileViewSchema>;

/** A receipt holder names the anonymous report whose files they upload, list or delete. */
export const reportFilesQuery = z.object({ report_id: z.uuid().optional() });

export { EVIDENCE_ACCEPT, EVIDENCE_TYPES } from './evidence-types.ts';
