import { describe, expect, it } from 'vitest';
import { unstorableTextPath } from './storable-text.ts';

describe('unstorableTextPath', () => {
  it('passes Korean, emoji, flags and control characters PostgreSQL stores', () => {
    expect(unstorableTextPath({ name: '김민지 😀🇰🇷', note: 'a\tb\nc', list: ['가', { x: 1 }] })).toBeNull();
  });

  it('names the first NUL or lone surrogate, in values and in keys', () => {
    expect(unstorableTextPath({ name: 'a\u0000b' })).toBe('name');
    expect(unstorableTextPath({ acts: [{ description: 'ok' }, { description: '\udf71' }] })).toBe(
      'acts[1].description',
    );
    expect(unstorableTextPath({ 'key\u0000': 'value' })).toBe('key\u0000');
    expect(unstorableTextPath('\ud800')).toBe('(value)');
  });
});
