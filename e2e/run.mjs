#!/usr/bin/env node
// `npm run test:e2e`: builds the web app and runs the Playwright suite in Debian's Chromium. Never downloads a
// browser: without /usr/bin/chromium the suite is skipped with one plain line, except under CI=true.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHROMIUM = '/usr/bin/chromium';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (!existsSync(CHROMIUM)) {
  console.info(`E2E SKIPPED: Chromium not found at ${CHROMIUM}`);
  process.exit(process.env.CI === 'true' ? 1 : 0);
}

const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.error) throw result.error;
  return result.status ?? 1;
};

const buildStatus = run('npm', ['run', 'build']);
if (buildStatus !== 0) process.exit(buildStatus);
process.exit(run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)]));
