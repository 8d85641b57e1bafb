import { FUZZ_SEED, formatRouteLine, formatSummary, runFuzz } from './fuzz-routes.ts';

/**
 * The full fuzz run (`npm run fuzz`): FUZZ_RUNS generated requests per route (10,000 by default) with the
 * fixed seed, on PGlite (or PostgreSQL with TEST_DB=postgres and TEST_DATABASE_URL). Exits 1 on any finding.
 */
const numRuns = Number(process.env.FUZZ_RUNS ?? 10_000);
const seed = Number(process.env.FUZZ_SEED ?? FUZZ_SEED);
const only = process.env.FUZZ_ONLY;

console.info(`fuzzing every route: ${numRuns} runs per route, seed ${seed}${only ? `, only ${only}` : ''}`);
const summary = await runFuzz({
  numRuns,
  seed,
  only,
  onRoute: (stats) => console.info(formatRouteLine(stats)),
});
console.info('');
console.info(formatSummary(summary));
for (const finding of summary.findings.slice(0, 50)) {
  console.info(
    `\n[${finding.kind}] ${finding.route} status ${finding.status ?? '-'}\n  request: ${finding.request}\n  answer: ${finding.detail}`,
  );
}
if (summary.findings.length > 50) console.info(`… and ${summary.findings.length - 50} more findings`);
console.info(
  summary.findings.length === 0 ? '\nfuzz: no findings' : `\nfuzz: ${summary.findings.length} findings`,
);
process.exit(summary.findings.length === 0 ? 0 : 1);
