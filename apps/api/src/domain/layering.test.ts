import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const domainDir = path.dirname(fileURLToPath(import.meta.url));
const srcDir = path.dirname(domainDir);
/** The HTTP side of the API: the domain is handed plain values by it and never reaches back. */
const httpDirs = ['plugins', 'routes'].map((name) => path.join(srcDir, name));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Every module specifier a file names: static imports and re-exports, side-effect imports, `import()`. */
function specifiers(source: string): string[] {
  const patterns = [
    /\bfrom\s+['"]([^'"]+)['"]/g,
    /\bimport\s+['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]!));
}

function isHttpImport(file: string, specifier: string): boolean {
  if (specifier === 'fastify' || specifier.startsWith('fastify-') || specifier.startsWith('@fastify/'))
    return true;
  if (!specifier.startsWith('.')) return false;
  const target = path.resolve(path.dirname(file), specifier);
  return httpDirs.some((dir) => target === dir || target.startsWith(`${dir}${path.sep}`));
}

describe('the domain layer', () => {
  const files = sourceFiles(domainDir);

  it('is found (an empty walk would pass vacuously)', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('imports neither Fastify nor the plugins and routes that speak HTTP', () => {
    const offending = files.flatMap((file) =>
      specifiers(fs.readFileSync(file, 'utf8'))
        .filter((specifier) => isHttpImport(file, specifier))
        .map((specifier) => `${path.relative(srcDir, file)} → ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it('would notice such an import', () => {
    const file = path.join(domainDir, 'manager', 'access.ts');
    expect(isHttpImport(file, '../../plugins/session.ts')).toBe(true);
    expect(isHttpImport(file, 'fastify')).toBe(true);
    expect(specifiers("import type { FastifyRequest } from 'fastify';")).toEqual(['fastify']);
    expect(isHttpImport(file, '../sessions/sessions.ts')).toBe(false);
  });
});
