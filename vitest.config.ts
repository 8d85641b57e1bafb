import { defineConfig } from 'vitest/config';

const apiTests = ['apps/api/test/**/*.test.ts', 'apps/api/src/**/*.test.ts'];

/**
 * The API integration suite runs once on embedded PGlite and, when TEST_DATABASE_URL is set, again on a real
 * PostgreSQL server: the same files, the database chosen by TEST_DB.
 */
export default defineConfig({
  test: {
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
          testTimeout: 60_000,
          hookTimeout: 60_000,
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
                testTimeout: 60_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      './apps/web/vitest.config.ts',
    ],
  },
});
