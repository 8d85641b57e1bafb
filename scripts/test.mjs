#!/usr/bin/env node
// `npm test`: type check, lint, unit + API integration (Vitest), then the browser suite (Playwright).
// Runs every stage even after a failure, so one run shows everything that is broken, and ends with one
// plain summary line of the counts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const resultsDir = path.join(root, 'test-results');
fs.mkdirSync(resultsDir, { recursive: true });
const vitestJson = path.join(resultsDir, 'vitest.json');
const e2eJson = path.join(resultsDir, 'e2e.json');
const vitestFiles = path.join(resultsDir, 'vitest-files.json');
for (const file of [vitestJson, e2eJson, vitestFiles]) fs.rmSync(file, { force: true });

const stages = [
  { name: 'type check', command: 'npm', args: ['run', '--silent', 'typecheck'] },
  { name: 'lint', command: 'npm', args: ['run', '--silent', 'lint'] },
  {
    name: 'unit and API integration',
    command: 'npx',
    args: [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${vitestJson}`,
      '--reporter=./scripts/vitest-file-times.ts',
    ],
    env: { VITEST_FILE_TIMES: vitestFiles },
  },
  { name: 'end-to-end', command: 'node', args: ['e2e/run.mjs'], env: { E2E_JSON_OUTPUT: e2eJson } },
];

const outcomes = [];
for (const stage of stages) {
  console.info(`\n▶ ${stage.name}`);
  const started = Date.now();
  const result = spawnSync(stage.command, stage.args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...stage.env },
  });
  const ok = result.status === 0;
  outcomes.push({ name: stage.name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1) });
}

let passed = 0;
let failed = 0;
let skipped = 0;
/** End-to-end tests that failed once and passed on their retry (CI only): listed, never hidden. */
const flaky = [];
if (fs.existsSync(vitestJson)) {
  const report = JSON.parse(fs.readFileSync(vitestJson, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (fs.existsSync(e2eJson)) {
  const report = JSON.parse(fs.readFileSync(e2eJson, 'utf8'));
  passed += (report.stats?.expected ?? 0) + (report.stats?.flaky ?? 0);
  failed += report.stats?.unexpected ?? 0;
  skipped += report.stats?.skipped ?? 0;
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === 'flaky') flaky.push([...titles, spec.title].filter(Boolean).join(' › '));
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) visit(suite, [suite.title]);
}

// Where the time went: every project's summed file time and the slowest files (docs/testing.md).
if (fs.existsSync(vitestFiles)) {
  const rows = JSON.parse(fs.readFileSync(vitestFiles, 'utf8'));
  const byProject = new Map();
  for (const row of rows) byProject.set(row.project, (byProject.get(row.project) ?? 0) + row.seconds);
  console.info('\nVitest time by project (summed over files; files run three at a time):');
  for (const [project, seconds] of byProject) console.info(`  ${project}: ${seconds.toFixed(0)} s`);
  console.info('Slowest files:');
  for (const row of rows.slice(0, 12)) console.info(`  ${row.seconds} s  ${row.project}  ${row.file}`);
}

console.info('\nStages:');
for (const outcome of outcomes)
  console.info(`  ${outcome.ok ? '✓' : '✗'} ${outcome.name} (${outcome.seconds} s)`);
const stageFailures = outcomes.filter((outcome) => !outcome.ok).length;
// A failed stage without counted tests (type errors, lint) still counts as a failure in the summary.
if (stageFailures > 0 && failed === 0) failed = stageFailures;
if (flaky.length > 0) {
  console.info(`Passed only on their retry (${flaky.length}):`);
  for (const title of flaky) console.info(`  ↻ ${title}`);
}
console.info(`total: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(stageFailures > 0 ? 1 : 0);
