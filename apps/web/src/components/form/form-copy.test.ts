import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ko from '../../locales/ko.form.json';

/** Every leaf of a catalogue as [dotted key, text]. */
const leaves = (value: unknown, prefix = ''): [string, string][] =>
  typeof value === 'object' && value !== null
    ? Object.entries(value).flatMap(([key, child]) => leaves(child, `${prefix}${key}.`))
    : [[prefix.slice(0, -1), String(value)]];

const placeholders = (text: string | undefined) =>
  [...(text ?? '').matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

describe('the shared form parts’ copy', () => {
  it('has an English entry for every Korean one, with the same placeholders', () => {
    const english = new Map(leaves(en));
    for (const [key, korean] of leaves(ko)) {
      expect(english.has(key), key).toBe(true);
      expect(placeholders(english.get(key)), key).toEqual(placeholders(korean));
    }
  });
});
