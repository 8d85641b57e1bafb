import { defineConfig } from 'vitest/config';

const apiTests = ['apps/api/test/**/*.test.ts', 'apps/api/src/**/*.test.ts'];

/**
 * Generous bounds for a shared machine: a test or hook that needs more than this has hung, not slowed down.
 * CI's machine may be busy with other work, and PGlite starts take seconds there (docs/testing.md).
 */
const apiTimeouts = { testTimeout: 180_000, hookTimeout: 300_000 };

/**
 * The API integration suite runs once on embedded PGlite and, when TEST_DATABASE_URL is set, again on a real
 * PostgreSQL server: the same files, the database chosen by TEST_DB.
 */
export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: one worker on this project's 2-core machines. Most
    // API test time is spent waiting on PostgreSQL or in PGlite's own start, so three files at once keep both
    // cores busy (docs/testing.md has the figures).
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'shared',
          include: ['packages/shared/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'bench',
          include: ['bench/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api-pglite',
          include: apiTests,
          environment: 'node',
          env: { TEST_DB: 'pglite' },
          ...apiTimeouts,
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                name: 'api-postgres',
                include: apiTests,
                // deployment.test.ts uses the PostgreSQL server on its own; once is enough.
                exclude: ['apps/api/src/**/*.test.ts', 'apps/api/test/deployment.test.ts'],
                environment: 'node' as const,
                env: { TEST_DB: 'postgres' },
                ...apiTimeouts,
              },
            },
          ]
        : []),
      './apps/web/vitest.config.ts',
    ],
  },
});
