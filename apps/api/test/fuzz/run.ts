import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  FUZZ_SEED,
  type FuzzSummary,
  formatRouteLine,
  formatSummary,
  ROUTE_SPECS,
  runFuzz,
} from './fuzz-routes.ts';

/**
 * The full fuzz run (`npm run fuzz`): FUZZ_RUNS generated requests per route (10,000 by default) with the
 * fixed seed, on PGlite (or PostgreSQL with TEST_DB=postgres and TEST_DATABASE_URL). Exits 1 on any finding.
 *
 * Each route is fuzzed in a process of its own, on a fixture of its own. Fastify's `inject` keeps about 10 KB
 * per request for the life of the process (a bare Fastify app shows it too; over real HTTP the server holds
 * nothing), so 430,000 injected requests in one process ran out of memory. A fresh process per route also
 * makes each route's findings reproducible alone.
 */
const numRuns = Number(process.env.FUZZ_RUNS ?? 10_000);
const seed = Number(process.env.FUZZ_SEED ?? FUZZ_SEED);
const only = process.env.FUZZ_ONLY;
const childRoute = process.env.FUZZ_CHILD_ROUTE;
const RESULT_PREFIX = 'FUZZ_RESULT ';

if (childRoute) {
  const summary = await runFuzz({ numRuns, seed, route: childRoute });
  console.info(`${RESULT_PREFIX}${JSON.stringify(summary)}`);
  process.exit(0);
}

function fuzzInChild(route: string): Promise<FuzzSummary> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=6144', '--import', 'tsx', fileURLToPath(import.meta.url)],
      { env: { ...process.env, FUZZ_CHILD_ROUTE: route }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = output.split('\n').find((text) => text.startsWith(RESULT_PREFIX));
      if (code === 0 && line) resolve(JSON.parse(line.slice(RESULT_PREFIX.length)) as FuzzSummary);
      else reject(new Error(`fuzzing ${route} ended with exit code ${code}`));
    });
  });
}

console.info(`fuzzing every route: ${numRuns} runs per route, seed ${seed}${only ? `, only ${only}` : ''}`);
const started = performance.now();
const total: FuzzSummary = { seed, runsPerRoute: numRuns, routes: [], findings: [], ms: 0 };
for (const route of Object.keys(ROUTE_SPECS)) {
  if (only && !route.includes(only)) continue;
  try {
    const summary = await fuzzInChild(route);
    for (const stats of summary.routes) console.info(formatRouteLine(stats));
    total.routes.push(...summary.routes);
    total.findings.push(...summary.findings);
  } catch (error) {
    total.findings.push({ route, kind: 'crash', detail: (error as Error).message, request: 'unknown' });
    console.info(`${route}: ${(error as Error).message}`);
  }
}
total.ms = Math.round(performance.now() - started);
console.info('');
console.info(formatSummary(total));
for (const finding of total.findings.slice(0, 50)) {
  console.info(
    `\n[${finding.kind}] ${finding.route} status ${finding.status ?? '-'}\n  request: ${finding.request}\n  answer: ${finding.detail}`,
  );
}
if (total.findings.length > 50) console.info(`… and ${total.findings.length - 50} more findings`);
console.info(
  total.findings.length === 0 ? '\nfuzz: no findings' : `\nfuzz: ${total.findings.length} findings`,
);
process.exit(total.findings.length === 0 ? 0 : 1);
