#!/usr/bin/env node
// `npm run typecheck`: two TypeScript programs side by side, one per core. The Node program (shared, API,
// bench, chaos) checks the API's sources once, where one program per folder checked them again for bench
// and chaos; the DOM program holds the web client and the end-to-end specs. The per-folder tsconfig.json
// files stay for editors and must include what these two include (docs/testing.md).
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const programs = ['tsconfig.node.json', 'tsconfig.dom.json'];

const codes = await Promise.all(
  programs.map(
    (project) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
        child.on('close', (code) => resolve({ project, code }));
      }),
  ),
);
const failed = codes.filter(({ code }) => code !== 0);
for (const { project } of failed) console.error(`typecheck: ${project} has errors`);
process.exit(failed.length > 0 ? 1 : 0);
