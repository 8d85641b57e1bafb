import { stripPackageMetadata } from './strip-package-metadata.ts';
import { stripPdfMetadata } from './strip-pdf-metadata.ts';

/**
 * Removes what an evidence file says about who made it and where, so that it cannot name an anonymous
 * reporter. Images are handled here, without re-encoding them: phone photos carry EXIF with GPS
 * coordinates, camera serials and times, which could identify a reporter or where they live. Documents
 * are handled in strip-pdf-metadata.ts and strip-package-metadata.ts.
 */

const JPEG_METADATA_MARKERS = new Set([
  0xe1, // APP1: EXIF and XMP
  0xe2, // APP2: FlashPix extensions may embed EXIF; an ICC colour profile is kept (see below)
  0xe3,
  0xe4,
  0xe5,
  0xe6,
  0xe7,
  0xe8,
  0xe9,
  0xea,
  0xeb,
  0xec, // APP3–APP12: vendor metadata
  0xed, // APP13: IPTC / Photoshop
  0xef, // APP15
  0xfe, // COM: free-text comments
]);

export function stripJpegMetadata(input: Buffer): Buffer {
  if (input.length < 4 || input[0] !== 0xff || input[1] !== 0xd8) return input;
  const parts: Buffer[] = [input.subarray(0, 2)];
  let offset = 2;
  while (offset + 4 <= input.length) {
    if (input[offset] !== 0xff) break;
    const marker = input[offset + 1]!;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    // Start of scan: the compressed image data follows, with no more metadata segments to remove.
    if (marker === 0xda) break;
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      parts.push(input.subarray(offset, offset + 2));
      offset += 2;
      continue;
    }
    const length = input.readUInt16BE(offset + 2);
    const end = offset + 2 + length;
    if (length < 2 || end > input.length) break;
    const isIccProfile =
      marker === 0xe2 && input.toString('latin1', offset + 4, offset + 15) === 'ICC_PROFILE';
    if (!JPEG_METADATA_MARKERS.has(marker) || isIccProfile) parts.push(input.subarray(offset, end));
    offset = end;
  }
  parts.push(input.subarray(offset));
  return Buffer.concat(parts);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_METADATA_CHUNKS = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt', 'tIME']);

export function stripPngMetadata(input: Buffer): Buffer {
  if (input.length < 8 || !input.subarray(0, 8).equals(PNG_SIGNATURE)) return input;
  const parts: Buffer[] = [PNG_SIGNATURE];
  let offset = 8;
  while (offset + 12 <= input.length) {
    const length = input.readUInt32BE(offset);
    const type = input.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > input.length) break;
    if (!PNG_METADATA_CHUNKS.has(type)) parts.push(input.subarray(offset, end));
    offset = end;
    if (type === 'IEND') break;
  }
  if (offset < input.length && parts.length === 1) return input;
  return Buffer.concat(parts);
}

export function stripWebpMetadata(input: Buffer): Buffer {
  if (
    input.length < 12 ||
    input.toString('latin1', 0, 4) !== 'RIFF' ||
    input.toString('latin1', 8, 12) !== 'WEBP'
  ) {
    return input;
  }
  const chunks: Buffer[] = [];
  let offset = 12;
  while (offset + 8 <= input.length) {
    const type = input.toString('latin1', offset, offset + 4);
    const size = input.readUInt32LE(offset + 4);
    const end = offset + 8 + size + (size % 2);
    if (end > input.length) break;
    let chunk = input.subarray(offset, Math.min(end, input.length));
    if (type === 'VP8X') {
      // Clear the EXIF (0x08) and XMP (0x04) flags so the header matches the chunks we keep.
      chunk = Buffer.from(chunk);
      chunk[8] = chunk[8]! & ~0x0c;
    }
    if (type !== 'EXIF' && type !== 'XMP ') chunks.push(chunk);
    offset = end;
  }
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}

/**
 * The uploads whose metadata is removed, by sniffed content type. Other types are never read into memory.
 * HWP 5 and old Office files (OLE compound files) are not among them: see decision 0003.
 */
const STRIPPERS = new Map<string, (input: Buffer) => Buffer | Promise<Buffer>>([
  ['image/jpeg', stripJpegMetadata],
  ['image/png', stripPngMetadata],
  ['image/webp', stripWebpMetadata],
  ['application/pdf', stripPdfMetadata],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', stripPackageMetadata],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', stripPackageMetadata],
  ['application/vnd.openxmlformats-officedocument.presentationml.presentation', stripPackageMetadata],
  ['application/hwp+zip', stripPackageMetadata],
]);

export function hasStrippableMetadata(contentType: string): boolean {
  return STRIPPERS.has(contentType);
}

/**
 * The upload without the metadata that could name or locate its author, or the same buffer when there is
 * nothing to remove. Never throws on a malformed file.
 */
export async function stripMetadata(contentType: string, input: Buffer): Promise<Buffer> {
  const strip = STRIPPERS.get(contentType);
  if (!strip) return input;
  try {
    return await strip(input);
  } catch {
    // A file we cannot parse (damaged, encrypted, an unusual ZIP) is stored as uploaded: losing or
    // refusing a reporter's evidence would do more harm than the author name it may carry.
    return input;
  }
}
