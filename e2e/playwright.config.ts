import { defineConfig } from '@playwright/test';

const here = import.meta.dirname;
const artifacts = process.env.E2E_ARTIFACTS ?? `${here}/artifacts`;

export default defineConfig({
  testDir: `${here}/specs`,
  outputDir: `${artifacts}/test-results`,
  globalSetup: `${here}/global-setup.ts`,
  globalTeardown: `${here}/global-teardown.ts`,
  // Two cores: one worker keeps the server, PGlite and Chromium from starving each other.
  workers: 1,
  fullyParallel: false,
  // One retry under CI, with its trace kept: a slow moment on a shared 2-core machine should not sink a run.
  // `npm test` lists every test that needed its retry, so a flake is seen, not hidden.
  retries: process.env.CI === 'true' ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['html', { outputFolder: `${artifacts}/report`, open: 'never' }],
    // `npm test` reads the counts from here for its one-line summary.
    ...(process.env.E2E_JSON_OUTPUT ? [['json', { outputFile: process.env.E2E_JSON_OUTPUT }] as const] : []),
  ],
  use: {
    locale: 'ko-KR',
    screenshot: 'only-on-failure',
    trace: process.env.CI === 'true' ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
