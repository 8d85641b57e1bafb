import fs from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromFile } from 'file-type';

/**
 * Evidence types accepted, judged by the bytes, never by the name or the browser's claim. Recordings are
 * common evidence in harassment cases, hence audio and video; Korean workplaces write in HWP/HWPX.
 */
const ALLOWED_SNIFFED = new Map<string, string>([
  ['image/jpeg', 'image/jpeg'],
  ['image/png', 'image/png'],
  ['image/gif', 'image/gif'],
  ['image/webp', 'image/webp'],
  ['application/pdf', 'application/pdf'],
  ['audio/mpeg', 'audio/mpeg'],
  ['audio/mp4', 'audio/mp4'],
  ['audio/x-m4a', 'audio/mp4'],
  ['audio/wav', 'audio/wav'],
  ['audio/aac', 'audio/aac'],
  ['audio/amr', 'audio/amr'],
  ['video/mp4', 'video/mp4'],
  ['video/quicktime', 'video/quicktime'],
  ['video/3gpp', 'video/3gpp'],
  [
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ],
  [
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ],
  [
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  ],
]);

/** OLE compound files (old Office, HWP 5) and ZIP containers (HWPX) are told apart by their extension. */
const CFB_BY_EXTENSION: Record<string, string> = {
  '.hwp': 'application/x-hwp',
  '.doc': 'application/msword',
  '.xls': 'application/vnd.ms-excel',
  '.ppt': 'application/vnd.ms-powerpoint',
};
const ZIP_BY_EXTENSION: Record<string, string> = { '.hwpx': 'application/hwp+zip' };
const TEXT_EXTENSIONS = new Set(['.txt']);
const TEXT_SNIFF_BYTES = 64 * 1024;

/**
 * Every content type an upload can be stored with; lib/strip-metadata.ts has an entry for each. The web's file
 * picker offers the same types (EVIDENCE_TYPES in packages/shared/src/contract/file.ts; sniff.test.ts).
 */
export const ACCEPTED_CONTENT_TYPES: ReadonlySet<string> = new Set([
  ...ALLOWED_SNIFFED.values(),
  ...Object.values(CFB_BY_EXTENSION),
  ...Object.values(ZIP_BY_EXTENSION),
  'text/plain; charset=utf-8',
]);

async function looksLikeUtf8Text(filePath: string): Promise<boolean> {
  const handle = await fs.open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(TEXT_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, TEXT_SNIFF_BYTES, 0);
    const sample = buffer.subarray(0, bytesRead);
    if (sample.includes(0)) return false;
    // A multi-byte character may be cut at the end of the sample; allow up to 3 trailing bytes to fail.
    const text = new TextDecoder('utf-8', { fatal: false }).decode(sample);
    const replacements = text.split('\uFFFD').length - 1;
    return replacements <= 1;
  } finally {
    await handle.close();
  }
}

/** An HWPX package opens with an uncompressed `mimetype` entry naming its type, as EPUB does. */
async function startsWithHwpxMimetype(filePath: string): Promise<boolean> {
  const handle = await fs.open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(256);
    const { bytesRead } = await handle.read(buffer, 0, 256, 0);
    return buffer.subarray(0, bytesRead).includes('application/hwp+zip');
  } finally {
    await handle.close();
  }
}

/** The content type to store for an upload, or null when its bytes are not an allowed kind. */
export async function sniffContentType(filePath: string, originalName: string): Promise<string | null> {
  const extension = path.extname(originalName).toLowerCase();
  const detected = await fileTypeFromFile(filePath);
  if (detected) {
    if (detected.mime === 'application/x-cfb') return CFB_BY_EXTENSION[extension] ?? null;
    if (detected.mime === 'application/zip') {
      const type = ZIP_BY_EXTENSION[extension];
      return type && (await startsWithHwpxMimetype(filePath)) ? type : null;
    }
    return ALLOWED_SNIFFED.get(detected.mime) ?? null;
  }
  if (TEXT_EXTENSIONS.has(extension) && (await looksLikeUtf8Text(filePath)))
    return 'text/plain; charset=utf-8';
  return null;
}

/** A display name safe to store and echo: no directories, no control characters, bounded length. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = [...base.normalize('NFC')]
    .filter((char) => {
      const code = char.charCodeAt(0);
      return code >= 0x20 && code !== 0x7f;
    })
    .join('')
    .trim();
  const bounded = cleaned.length > 200 ? cleaned.slice(cleaned.length - 200) : cleaned;
  return bounded && bounded !== '.' && bounded !== '..' ? bounded : '첨부파일';
}
