import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The repository must explain itself: code, tests and docs cite docs/ (requirements by ID, decision notes, the
 * threat model), never a document that lives outside it. This file is the one place the forbidden forms are
 * spelled out, so it is skipped below.
 */
const self = path.resolve(fileURLToPath(import.meta.url));
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], {
  cwd: path.dirname(self),
  encoding: 'utf8',
}).trim();

/** References into documents that are not in the repository. */
const OUTSIDE_REFERENCES: readonly { name: string; pattern: RegExp }[] = [
  { name: 'spec §N', pattern: /\bspec(?:ification)?\s*§/i },
  { name: 'DESIGN §N', pattern: /\bdesign\s*§/i },
  { name: 'issue N', pattern: /\bissues?\s+#?\d+\b/i },
  { name: 'STYLE.md', pattern: /\bSTYLE\.md\b/ },
  { name: 'DESIGN.md', pattern: /\bDESIGN\.md\b/ },
  { name: 'STACK.md', pattern: /\bSTACK\.md\b/ },
  { name: 'spec/000…', pattern: /\bspec\/000/ },
];

/** A requirement ID as docs/requirements.md defines them: `R-ANON-3`. */
const REQUIREMENT_ID = /\bR-(?:WEB|WIZ|ANON|ACC|CASE|INV|STAT|CO|SEC|EMP|OPS|PERF)-\d+\b/g;

const SKIPPED = new Set(['package-lock.json']);

/** Tracked files, and new ones not ignored, so a reference is caught before it is committed. */
function repositoryTextFiles(): { file: string; text: string }[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter((file) => file !== '' && !SKIPPED.has(file) && !file.includes('node_modules/'));
  return [...new Set(listed)].flatMap((file) => {
    const full = path.join(root, file);
    if (full === self) return [];
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(full);
    } catch {
      return []; // deleted in the worktree, not yet in the index
    }
    if (bytes.includes(0)) return []; // binary
    return [{ file, text: bytes.toString('utf8') }];
  });
}

describe('docs stand alone', () => {
  const files = repositoryTextFiles();

  it('reads the repository', () => {
    expect(files.some((entry) => entry.file === 'docs/requirements.md')).toBe(true);
    expect(files.length).toBeGreaterThan(100);
  });

  it('cites no document outside the repository (spec §, DESIGN §, issue N, STYLE.md, DESIGN.md)', () => {
    const found: string[] = [];
    for (const { file, text } of files) {
      text.split('\n').forEach((line, index) => {
        for (const { name, pattern } of OUTSIDE_REFERENCES) {
          if (pattern.test(line))
            found.push(`${file}:${index + 1} cites ${name}: ${line.trim().slice(0, 120)}`);
        }
      });
    }
    expect(found, 'cite docs/requirements.md (R-…), a decision note or docs/threat-model.md instead').toEqual(
      [],
    );
  });

  it('cites only requirement IDs that docs/requirements.md defines', () => {
    const requirements = files.find((entry) => entry.file === 'docs/requirements.md')?.text ?? '';
    const defined = new Set(
      [...requirements.matchAll(/\*\*(R-[A-Z]+-\d+)\b/g)]
        .map((match) => match[1])
        .filter((id) => id !== undefined),
    );
    expect(defined.size).toBeGreaterThan(50);
    const unknown: string[] = [];
    for (const { file, text } of files) {
      for (const match of text.matchAll(REQUIREMENT_ID)) {
        if (!defined.has(match[0])) unknown.push(`${file}: ${match[0]}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
