import { describe, expect, it } from 'vitest';
import { containsSentinel, docxFixture, unclosedTagsPackage } from '../../test/metadata-fixtures.ts';
import { removeMetadata } from './remove-metadata.ts';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('removeMetadata runs in a worker thread with a time limit', () => {
  it('strips a document in the worker and hands the stripped bytes back', async () => {
    const input = docxFixture();
    expect(containsSentinel(input)).toBe(true);
    const { outcome, output } = await removeMetadata(DOCX, input, { timeoutMs: 20_000 });
    expect(outcome).toBe('removed');
    expect(containsSentinel(output)).toBe(false);
    expect(output.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('terminates a worker over its time limit: the file is unremovable and kept as uploaded', async () => {
    const input = unclosedTagsPackage('docx', 400_000);
    // Starting a worker alone takes longer than a millisecond, so the limit is always reached.
    const { outcome, output } = await removeMetadata(DOCX, input, { timeoutMs: 1 });
    expect(outcome).toBe('unremovable');
    expect(output).toBe(input);
    // The pool is not left blocked by the terminated worker: the next file is processed.
    const next = await removeMetadata(DOCX, input, { timeoutMs: 20_000 });
    expect(next.outcome).toBe('unremovable'); // malformed, and said so by the parser this time
  });

  it('keeps the event loop free while the F1 package is parsed', async () => {
    let turns = 0;
    let isDone = false;
    const spin = () => {
      if (isDone) return;
      turns += 1;
      setImmediate(spin);
    };
    spin();
    const result = await removeMetadata(DOCX, unclosedTagsPackage('docx'), { timeoutMs: 20_000 });
    isDone = true;
    expect(result.outcome).toBe('unremovable');
    // Work on the main thread would have let no turn through until it ended.
    expect(turns).toBeGreaterThan(10);
  });

  it('settles plain text and OLE documents without a worker', async () => {
    const text = Buffer.from('메모');
    expect((await removeMetadata('text/plain; charset=utf-8', text, { timeoutMs: 1 })).outcome).toBe('none');
    expect((await removeMetadata('application/x-hwp', text, { timeoutMs: 1 })).outcome).toBe('unremovable');
  });
});
