import { describe, expect, it } from 'vitest';
import { citedFiles, extensionOf, fileKind, genericFileName } from './evidence-names';

const act = (evidences: string[] | null) => ({ date: '', location: '', description: '', evidences });

describe('evidence names', () => {
  it('lists cited files once, acts before harms, in the order they are cited', () => {
    const form = {
      acts: [act(['b', 'a']), act(null), act(['c', 'b'])],
      harms: [{ ...act(['d', 'a']) }],
    } as never;
    expect(citedFiles(form)).toEqual([
      { id: 'b', path: 'acts.0.evidences' },
      { id: 'a', path: 'acts.0.evidences' },
      { id: 'c', path: 'acts.2.evidences' },
      { id: 'd', path: 'harms.0.evidences' },
    ]);
  });

  it('names a file by its position with the extension the company will see, never the original name', () => {
    expect(genericFileName(1, { name: '김안심_녹음.M4A' })).toBe('증거자료-1.m4a');
    expect(genericFileName(2, { name: '진술서.pdf' })).toBe('증거자료-2.pdf');
    expect(genericFileName(3, { name: '이름없음' })).toBe('증거자료-3');
    expect(extensionOf({ name: '보고서.HWPX' })).toBe('hwpx');
    expect(extensionOf({ name: '.bashrc' })).toBe('');
  });

  it('describes the type in words', () => {
    expect(fileKind('image/jpeg')).toBe('image');
    expect(fileKind('application/pdf')).toBe('pdf');
    expect(fileKind('audio/mpeg')).toBe('audio');
    expect(fileKind('video/mp4')).toBe('video');
    expect(fileKind('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe(
      'document',
    );
    expect(fileKind('application/octet-stream')).toBe('other');
  });
});
