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

/**
 * The extension the company sees, as the server derives it (apps/api/src/domain/manager/case-view.ts): the
 * original one, lower-cased, letters and digits only; none when the name has none.
 */
export function extensionOf(file: { name: string }): string {
  const dot = file.name.lastIndexOf('.');
  if (dot <= 0) return '';
  return file.name
    .slice(dot + 1)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** The generic name an anonymous report's file carries for the company: `증거자료-1.jpg`, by citation order. */
export const genericFileName = (position: number, file: { name: string }): string => {
  const extension = extensionOf(file);
  return `증거자료-${position}${extension ? `.${extension}` : ''}`;
};

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
