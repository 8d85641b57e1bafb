import type { MetadataOutcome } from './metadata-outcome.ts';
import {
  stripGifMetadata,
  stripJpegMetadata,
  stripPngMetadata,
  stripWebpMetadata,
} from './strip-image-metadata.ts';
import {
  stripAmrMetadata,
  stripMp4Metadata,
  stripMpegAudioMetadata,
  stripWavMetadata,
} from './strip-media-metadata.ts';
import { stripPackageMetadata } from './strip-package-metadata.ts';

/**
 * Removes what an evidence file says about who made it and where, so that it cannot name an anonymous
 * reporter. One entry per content type the upload accepts (lib/sniff.ts), so that a type added there
 * without one here is `unremovable` rather than stored with its metadata unnoticed. Runs in a worker
 * (lib/remove-metadata.ts): call that, not this, from a request.
 */

type Stripper = (input: Buffer) => Buffer | Promise<Buffer>;

/** The PDF library is large: loaded with the first PDF, so that a worker starts quickly for the rest. */
async function stripPdfMetadata(input: Buffer): Promise<Buffer> {
  return (await import('./strip-pdf-metadata.ts')).stripPdfMetadata(input);
}
type Handling = Stripper | 'no-metadata' | 'cannot-remove';

const OOXML = 'application/vnd.openxmlformats-officedocument';

export const METADATA_HANDLING = new Map<string, Handling>([
  ['image/jpeg', stripJpegMetadata],
  ['image/png', stripPngMetadata],
  ['image/gif', stripGifMetadata],
  ['image/webp', stripWebpMetadata],
  ['application/pdf', stripPdfMetadata],
  ['audio/mpeg', stripMpegAudioMetadata],
  ['audio/aac', stripMpegAudioMetadata],
  ['audio/amr', stripAmrMetadata],
  ['audio/wav', stripWavMetadata],
  ['audio/mp4', stripMp4Metadata],
  ['video/mp4', stripMp4Metadata],
  ['video/quicktime', stripMp4Metadata],
  ['video/3gpp', stripMp4Metadata],
  [`${OOXML}.wordprocessingml.document`, stripPackageMetadata],
  [`${OOXML}.spreadsheetml.sheet`, stripPackageMetadata],
  [`${OOXML}.presentationml.presentation`, stripPackageMetadata],
  ['application/hwp+zip', stripPackageMetadata],
  ['text/plain; charset=utf-8', 'no-metadata'],
  // OLE compound files keep the author and last editor in their summary-information streams, and old Word
  // keeps comment and revision authors inside its binary tables; we have no editor we trust for them.
  ['application/x-hwp', 'cannot-remove'],
  ['application/msword', 'cannot-remove'],
  ['application/vnd.ms-excel', 'cannot-remove'],
  ['application/vnd.ms-powerpoint', 'cannot-remove'],
]);

export interface MetadataResult {
  outcome: MetadataOutcome;
  /** The bytes to store: stripped when `removed`, else the upload as it was. */
  output: Buffer;
}

/** Never throws: a file a stripper cannot follow (damaged, encrypted, signed) is `unremovable`. */
export async function stripMetadata(contentType: string, input: Buffer): Promise<MetadataResult> {
  const handling = METADATA_HANDLING.get(contentType);
  if (handling === 'no-metadata') return { outcome: 'none', output: input };
  if (handling === undefined || handling === 'cannot-remove')
    return { outcome: 'unremovable', output: input };
  try {
    return { outcome: 'removed', output: await handling(input) };
  } catch {
    return { outcome: 'unremovable', output: input };
  }
}
