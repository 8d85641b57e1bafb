#!/usr/bin/env node
// The web build: the browser's files, then the prerender bundle the API renders public pages with (decision
// 0020), then .br and .gz beside every compressible browser file. `node scripts/build.mjs [outDir]`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEnv } from 'vite';

const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(process.argv[2] ?? join(webDir, 'dist'));
const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
const run = (args) => execFileSync(process.execPath, args, { cwd: webDir, stdio: 'inherit' });

run([vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn']);
// Inside the browser build, so one directory holds both; @fastify/static never serves a dot-folder.
run([
  vite,
  'build',
  '--ssr',
  'src/entry-server.tsx',
  '--outDir',
  join(outDir, '.server'),
  '--emptyOutDir',
  '--logLevel',
  'error',
]);
run([join(webDir, 'scripts', 'compress.mjs'), outDir]);

// The analytics host the client was built with, for the API's CSP (apps/api/src/plugins/security-headers.ts):
// the same VITE_ variables Vite read, from the environment or the web app's .env files; null without a key,
// when the client loads no analytics and the CSP allows no other origin.
const viteEnv = { ...loadEnv('production', webDir, 'VITE_'), ...process.env };
const analyticsHost = viteEnv.VITE_POSTHOG_KEY?.trim()
  ? viteEnv.VITE_POSTHOG_HOST?.trim() || 'https://eu.i.posthog.com'
  : null;
mkdirSync(join(outDir, '.vite'), { recursive: true });
writeFileSync(join(outDir, '.vite', 'analytics.json'), `${JSON.stringify({ host: analyticsHost })}\n`);
