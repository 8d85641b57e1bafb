import type { ReportForm } from '@ansim/shared/report-form';

/** Where a cited file sits in the draft, so the review can send the reporter back to it. */
export interface Citation {
  id: string;
  /** Dotted path of the list holding it, e.g. `acts.0.evidences`. */
  path: string;
}

/** Every file the draft cites, once, in the order the company reads them: acts first, then harms. */
export function citedFiles(form: Pick<ReportForm, 'acts' | 'harms'>): Citation[] {
  const seen = new Set<string>();
  const result: Citation[] = [];
  const lists = [
    ['acts', form.acts],
    ['harms', form.harms],
  ] as const;
  for (const [list, items] of lists) {
    items.forEach((item, index) => {
      for (const id of item.evidences ?? []) {
        if (seen.has(id)) continue;
        seen.add(id);
        result.push({ id, path: `${list}.${index}.evidences` });
      }
    });
  }
  return result;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/amr': 'amr',
  'audio/wav': 'wav',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/3gpp': '3gp',
  'text/plain': 'txt',
};

/** The extension the company sees: the original one when it is plain, else one for the detected type. */
export function extensionOf(file: { name: string; content_type: string }): string {
  const fromName = /\.([A-Za-z0-9]{1,5})$/.exec(file.name)?.[1]?.toLowerCase();
  return fromName ?? EXTENSIONS[file.content_type] ?? 'bin';
}

/** The generic name an anonymous report's file carries for the company: `증거자료-1.jpg`, by citation order. */
export const genericFileName = (position: number, file: { name: string; content_type: string }): string =>
  `증거자료-${position}.${extensionOf(file)}`;

export type FileKind = 'image' | 'pdf' | 'audio' | 'video' | 'document' | 'text' | 'other';

export function fileKind(contentType: string): FileKind {
  if (contentType.startsWith('image/')) return 'image';
  if (contentType === 'application/pdf') return 'pdf';
  if (contentType.startsWith('audio/')) return 'audio';
  if (contentType.startsWith('video/')) return 'video';
  if (contentType === 'text/plain') return 'text';
  if (/word|excel|powerpoint|officedocument|spreadsheet|presentation|hwp|haansoft|msword/.test(contentType))
    return 'document';
  return 'other';
}
