import { describe, expect, it } from 'vitest';
import { FUZZ_SEED, formatSummary, runFuzz } from './fuzz-routes.ts';

/**
 * The short fuzz run of `npm test`: every route with 60 generated requests from the fixed seed, on each database.
 * `npm run fuzz` runs the same generators 10,000 times per route.
 */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_TEST_RUNS ?? 60);

describe('fuzzing every route (short run)', () => {
  it(
    'answers every generated body, query and header without a 5xx, a stack trace, a hang or a crash',
    async () => {
      const summary = await runFuzz({ numRuns: RUNS_PER_ROUTE, seed: FUZZ_SEED });
      const requests = summary.routes.reduce((sum, route) => sum + route.runs, 0);
      expect(summary.routes.length).toBeGreaterThan(40);
      expect(requests).toBe(summary.routes.length * RUNS_PER_ROUTE);
      expect(summary.findings, formatSummary(summary)).toEqual([]);
    },
    20 * 60_000,
  );
});
