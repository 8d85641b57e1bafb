// The web client's side of the bench: a fresh production build (in a directory of its own, so a build that
// other work is serving is never replaced under it), initial JS per route from its manifest, and Lighthouse
// on Debian's Chromium. No browser is ever downloaded.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
// @ts-expect-error: a plain .mjs script of the web workspace, shared so the figures are measured one way
import { measureRoutesJs } from '../apps/web/scripts/initial-js.mjs';
import { repoRoot } from './lib.ts';
import type { BenchResults, LighthouseRow } from './results.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const webDir = path.join(repoRoot, 'apps', 'web');

/**
 * Builds the web client into a temporary directory and precompresses it, as `npm run build` does for the real
 * dist. `BENCH_WEB_DIST` names an existing build to use instead (quicker when iterating on the bench).
 */
export function buildWeb(): { dist: string; cleanup: () => void } {
  if (process.env.BENCH_WEB_DIST)
    return { dist: path.resolve(process.env.BENCH_WEB_DIST), cleanup: () => {} };
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-bench-web-'));
  // The same build as `npm run build`: the browser's files, the prerender bundle, precompressed copies.
  execFileSync(process.execPath, [path.join(webDir, 'scripts', 'build.mjs'), dist], {
    cwd: webDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { dist, cleanup: () => fs.rmSync(dist, { recursive: true, force: true }) };
}

export function initialJs(dist: string): BenchResults['initialJs'] {
  const measured = measureRoutesJs(dist) as {
    routes: { id: string; path: string; gzipBytes: number }[];
    landing: { budgetBytes: number; withinBudget: boolean };
  };
  return {
    budgetBytes: measured.landing.budgetBytes,
    landingWithinBudget: measured.landing.withinBudget,
    routes: measured.routes.map(({ id, path, gzipBytes }) => ({ id, path, gzipBytes })),
  };
}

export interface LighthousePage {
  name: string;
  path: string;
  /** Browser state the page needs (a session, a local draft), set before Lighthouse loads it. */
  state?: { cookies: { name: string; value: string }[]; localStorage: Record<string, string> };
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

function toRow(page: LighthousePage, lhr: Lhr): LighthouseRow {
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const requests =
    (
      lhr.audits['network-requests']?.details as {
        items?: { resourceType?: string; transferSize?: number }[];
      }
    )?.items ?? [];
  return {
    name: page.name,
    path: page.path,
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    lcpMs: numeric('largest-contentful-paint'),
    fcpMs: numeric('first-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    scriptTransferBytes: requests
      .filter((request) => request.resourceType === 'Script')
      .reduce((sum, request) => sum + (request.transferSize ?? 0), 0),
    finalUrl: lhr.finalDisplayedUrl,
  };
}

/**
 * Lighthouse's default (mobile) configuration on each page, in one Chromium started by chrome-launcher. A
 * page's state goes in through the DevTools protocol (Playwright attached to that same browser):
 * Lighthouse's storage reset clears caches and service workers but keeps cookies and localStorage, so the
 * page loads cold yet logged in. Each page is run `runs` times and the run with the median performance
 * score is kept.
 */
export async function runLighthouse(
  base: string,
  pages: LighthousePage[],
  runs: number,
): Promise<BenchResults['lighthouse']> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS });
  const result: BenchResults['lighthouse'] = { preset: 'mobile', chromium: 'Chromium', pages: [] };
  try {
    for (const page of pages) {
      if (page.state) await setBrowserState(chrome.port, base, page.state);
      const attempts: LighthouseRow[] = [];
      const failures: string[] = [];
      // Chromium now and then records a trace Lighthouse cannot read (NO_NAVSTART): such a run is retried.
      while (attempts.length < runs && failures.length < 3) {
        const runner = await lighthouse(`${base}${page.path}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
        });
        const lhr = runner?.lhr;
        if (!lhr || lhr.runtimeError) {
          failures.push(lhr?.runtimeError?.code ?? 'no result');
          continue;
        }
        // A page that redirected (to the login page, say) would be measured as another page.
        if (new URL(lhr.finalDisplayedUrl).pathname !== page.path)
          throw new Error(`${page.path} ended on ${lhr.finalDisplayedUrl}`);
        result.chromium =
          lhr.environment.hostUserAgent.match(/(?:Headless)?Chrome\/[\d.]+/)?.[0] ?? 'Chromium';
        result.preset = `${lhr.configSettings.formFactor}, ${lhr.configSettings.throttlingMethod} throttling, ${runs === 1 ? 'one run' : `median of ${runs} runs`} per page`;
        attempts.push(toRow(page, lhr));
      }
      if (attempts.length === 0) {
        result.error = `${result.error ? `${result.error}; ` : ''}${page.path}: ${failures.join(', ')}`;
        continue;
      }
      attempts.sort((a, b) => a.performance - b.performance);
      result.pages.push(attempts[Math.floor(attempts.length / 2)]!);
    }
  } finally {
    chrome.kill();
  }
  return result;
}

async function setBrowserState(
  port: number,
  base: string,
  state: NonNullable<LighthousePage['state']>,
): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('Chromium has no default browser context');
    await context.addCookies(
      state.cookies.map((cookie) => ({ ...cookie, url: base, sameSite: 'Lax' as const })),
    );
    const tab = await context.newPage();
    // A JSON route of the same origin: localStorage is per origin, and no page script or asset gets cached.
    await tab.goto(`${base}/api/health`);
    await tab.evaluate((entries) => {
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, state.localStorage);
    await tab.close();
  } finally {
    // Attached, not launched: close() only disconnects and leaves the browser to Lighthouse.
    await browser.close();
  }
}
