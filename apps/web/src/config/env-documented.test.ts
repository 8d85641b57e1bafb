import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (relative: string) => readFileSync(new URL(relative, import.meta.url), 'utf8');

describe('the build-time variables', () => {
  // Each VITE_ variable the client reads is one an operator sets when building: the README says what it does.
  it("are each in the README's configuration section", () => {
    const names = [...new Set([...read('./env.ts').matchAll(/'(VITE_[A-Z_]+)'/g)].map((match) => match[1]))];
    expect(names.length).toBeGreaterThan(0);
    const readme = read('../../../../README.md');
    const configuration = readme.slice(
      readme.indexOf('## Configuration'),
      readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1),
    );
    const undocumented = names.filter((name) => !configuration.includes(`| \`${name}\` |`));
    expect(undocumented).toEqual([]);
  });
});
