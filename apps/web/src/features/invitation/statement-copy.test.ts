import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ko from '../../locales/ko.json';

/** Every string under a catalogue's branch, with its key. */
function strings(branch: unknown, prefix: string): Array<[string, string]> {
  if (typeof branch === 'string') return [[prefix, branch]];
  return Object.entries(branch as Record<string, unknown>).flatMap(([key, value]) =>
    strings(value, `${prefix}.${key}`),
  );
}

describe('the statement pages’ copy', () => {
  // The accused and witnesses come by a link with no account: their pages show no report menus, so the copy
  // must not send them looking for any.
  it('mentions no menu the statement pages do not have', () => {
    const mentions = [...strings(ko.invitation, 'ko.invitation'), ...strings(en.invitation, 'en.invitation')]
      .filter(([, text]) => /메뉴|menu/i.test(text))
      .map(([key]) => key);
    expect(mentions).toEqual([]);
  });
});
