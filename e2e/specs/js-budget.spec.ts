import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page, Request } from '@playwright/test';
import { paths } from '../../apps/web/src/config/paths';
import {
  createConfirmedUser,
  demoAdmin,
  demoManager,
  demoOperator,
  ensureManagerTotp,
  expect,
  loginThroughApi,
  server,
  test,
} from '../fixtures';
import { readServerState } from '../server-state';

/**
 * R-PERF-2: what a first visit really transfers, not what the build manifest says. Each route is opened in a
 * fresh browser context (empty HTTP cache), in Chromium, from the API that serves the built app with its
 * precompressed files; once the page has settled, the bytes of every script response are summed as the
 * network saw them (CDP `Network.loadingFinished` encodedDataLength: compressed body and headers), against the
 * route's own budget below.
 */

const KB = 1024;

/**
 * Each route's budget in KB, from what it transferred on React 19 (docs/decisions/0033): the figure measured,
 * rounded up to 5 KB, and 5 KB more, so a route that grows by a component fails here and is looked at. The
 * pages a reporter may open on a phone without an account keep the 150 KB of decision 0001.
 */
const BUDGETS_KB: Readonly<Record<string, number>> = {
  index: 150,
  receipt: 150,
  'intake-code': 150,
  privacy: 150,
  terms: 150,
  login: 185,
  register: 225,
  'register-confirm': 210,
  'register-resend': 225,
  'forgot-password': 225,
  'reset-password': 225,
  reference: 220,
  'reference-a': 240,
  defendant: 220,
  'defendant-a': 240,
  'not-found': 195,
  report: 170,
  'report-t': 220,
  'report-t-a': 175,
  dashboard: 240,
  'account-security': 235,
  'report-detail-id': 240,
  logout: 225,
  manager: 235,
  'manager-detail-id': 245,
  'manager-stats': 220,
  'manager-settings': 240,
  operator: 245,
  'join-token': 225,
  'domain-verify-token': 215,
};
const budgetOf = (route: string): number => (BUDGETS_KB[route] ?? 0) * KB;

type Who = 'guest' | 'member' | 'manager' | 'admin' | 'operator';
interface Visit {
  route: string;
  path: () => string;
  who: Who;
  /** The report type a wizard page needs in the local draft (its guard sends a visitor without one back). */
  reportType?: string;
  /** Drawn in plain HTML and CSS (decisions 0001, 0020, 0022, 0025): neither MUI nor Emotion may load on it. */
  withoutMui?: true;
}

function demoIntakeCode(): string {
  const match = /intake link: \/c\/([A-Za-z0-9-]+)/.exec(readFileSync(readServerState().logFile, 'utf8'));
  if (!match) throw new Error('The server log has no intake link of the demo company');
  return match[1]!;
}

/** Every route of config/paths.ts; a test below fails when a route is added there and not here. */
const VISITS: Visit[] = [
  { route: paths.index.name, path: () => '/', who: 'guest', withoutMui: true },
  {
    route: paths.receipt.name,
    path: () => '/receipt',
    who: 'guest',
    withoutMui: true,
  },
  {
    route: paths.intake.name,
    path: () => `/c/${demoIntakeCode()}`,
    who: 'guest',
    withoutMui: true,
  },
  { route: paths.login.name, path: () => '/login', who: 'guest', withoutMui: true },
  { route: paths.register.name, path: () => '/register', who: 'guest' },
  {
    route: paths.registerConfirm.name,
    path: () => '/register/confirm?token=not-a-real-token',
    who: 'guest',
  },
  { route: paths.registerResend.name, path: () => '/register/resend', who: 'guest' },
  { route: paths.forgotPassword.name, path: () => '/forgot-password', who: 'guest' },
  {
    route: paths.resetPassword.name,
    path: () => '/reset-password?token=not-a-real-token',
    who: 'guest',
  },
  { route: paths.privacy.name, path: () => '/privacy', who: 'guest', withoutMui: true },
  { route: paths.terms.name, path: () => '/terms', who: 'guest', withoutMui: true },
  { route: paths.reference.name, path: () => '/reference', who: 'guest' },
  {
    route: paths.referenceA.name,
    path: () => '/reference/a?token=invitation-token',
    who: 'guest',
  },
  { route: paths.defendant.name, path: () => '/defendant', who: 'guest' },
  {
    route: paths.defendantA.name,
    path: () => '/defendant/a?token=invitation-token',
    who: 'guest',
  },
  { route: 'not-found', path: () => '/no-such-page', who: 'guest' },
  { route: paths.report.name, path: () => '/report', who: 'member', withoutMui: true },
  { route: paths.reportT.name, path: () => '/report/t', who: 'member', reportType: 'formal' },
  {
    route: paths.reportTA.name,
    path: () => '/report/t/a?step=1',
    who: 'member',
    reportType: 'formal',
    withoutMui: true,
  },
  { route: paths.dashboard.name, path: () => '/dashboard', who: 'member' },
  { route: paths.accountSecurity.name, path: () => '/account/security', who: 'member' },
  { route: paths.reportDetail.name, path: () => '/report-detail/1', who: 'member' },
  { route: paths.logout.name, path: () => '/logout', who: 'member' },
  { route: paths.manager.name, path: () => '/manager', who: 'manager' },
  { route: paths.managerDetail.name, path: () => '/manager/detail/1', who: 'manager' },
  { route: paths.managerStats.name, path: () => '/manager/stats', who: 'manager' },
  { route: paths.managerSettings.name, path: () => '/manager/settings', who: 'admin' },
  { route: paths.operator.name, path: () => '/operator', who: 'operator' },
  { route: paths.join.name, path: () => '/join/not-a-real-token', who: 'guest' },
  {
    route: paths.domainVerify.name,
    path: () => '/domains/verify/not-a-real-token',
    who: 'guest',
  },
];

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;
const states = new Map<Who, StorageState | undefined>([['guest', undefined]]);

async function loggedInState(browser: Browser, who: Exclude<Who, 'guest'>): Promise<StorageState> {
  const context = await browser.newContext({ baseURL: server.baseURL });
  const handlers = { manager: demoManager, admin: demoAdmin, operator: demoOperator } as const;
  const user = who === 'member' ? await createConfirmedUser(context.request) : handlers[who]();
  // Handlers and the operator read nothing without a second factor.
  if (who !== 'member') await ensureManagerTotp(context.request, server.baseURL, user);
  else await loginThroughApi(context.request, server.baseURL, user);
  // The client keeps the session's expiry beside the cookie; a page that reads it at start-up needs it.
  const page = await context.newPage();
  await page.goto('/api/health');
  await page.evaluate(() =>
    localStorage.setItem('loginExpires', String(Math.floor(Date.now() / 1000) + 3600)),
  );
  const state = await context.storageState();
  await context.close();
  return state;
}

interface Script {
  url: string;
  encoding: string;
  isSmall: boolean;
  bytes?: number;
}

/**
 * Opens the page and waits until it has rendered and no request it started is still running. Playwright's
 * request events cover the page and its workers (the captcha solves in web workers); `sizes()` reads CDP's
 * `Network.loadingFinished` encodedDataLength, i.e. the bytes that crossed the network, headers included.
 */
async function visit(page: Page, path: string): Promise<Script[]> {
  const inFlight = new Set<Request>();
  const finished: Request[] = [];
  page.context().on('request', (request) => {
    // An event stream never ends by design; it is not something the page waits for.
    if (request.resourceType() !== 'eventsource') inFlight.add(request);
  });
  page.context().on('requestfinished', (request) => {
    inFlight.delete(request);
    finished.push(request);
  });
  page.context().on('requestfailed', (request) => inFlight.delete(request));
  await page.goto(path);
  await expect(page.locator('h1').first()).toBeVisible();
  // A prerendered page is on screen before its scripts are even asked for (decision 0020): the app has
  // started, and fetched what it needs, once the page is no longer inert.
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  const pending = () => [...inFlight].map((request) => request.url());
  await expect.poll(pending, { timeout: 20_000 }).toEqual([]);
  await page.evaluate(() => document.fonts.ready);
  await expect.poll(pending).toEqual([]);
  const scripts: Script[] = [];
  for (const request of finished) {
    if (request.resourceType() !== 'script') continue;
    const response = await request.response();
    const sizes = await request.sizes();
    scripts.push({
      url: request.url(),
      encoding: (await response?.headerValue('content-encoding')) ?? 'identity',
      // Files under 512 bytes are not precompressed (apps/web/scripts/compress.mjs): nothing to gain.
      isSmall: sizes.responseBodySize < 512,
      bytes: sizes.responseBodySize + sizes.responseHeadersSize,
    });
  }
  return scripts;
}

test('every route of config/paths.ts has a budget here', () => {
  const measured = new Set(VISITS.map((entry) => entry.route));
  const missing = Object.values(paths)
    .map((route) => route.name)
    .filter((name) => !measured.has(name));
  expect(missing).toEqual([]);
  expect(VISITS.filter((entry) => !BUDGETS_KB[entry.route]).map((entry) => entry.route)).toEqual([]);
});

for (const entry of VISITS) {
  const budget = budgetOf(entry.route);
  test(`first visit transfers at most ${budget / KB} KB of JS — ${entry.route}`, async ({ browser }) => {
    if (entry.who !== 'guest' && !states.has(entry.who))
      states.set(entry.who, await loggedInState(browser, entry.who));
    const context = await browser.newContext({
      baseURL: server.baseURL,
      storageState: states.get(entry.who),
      viewport: { width: 375, height: 812 },
    });
    if (entry.reportType)
      await context.addInitScript((type) => {
        localStorage.setItem('ansim.reportDraft.report_type', JSON.stringify(type));
      }, entry.reportType);
    const page = await context.newPage();
    const path = entry.path();
    const scripts = await visit(page, path);
    const landedOn = new URL(page.url()).pathname;
    const emotionStyles = await page.locator('style[data-emotion]').count();
    await context.close();

    if (entry.withoutMui) {
      // MUI's components all style through Emotion: any of them on the page leaves a <style data-emotion>.
      expect(emotionStyles, 'Emotion style elements on a page drawn without MUI').toBe(0);
      const muiScripts = scripts.filter((s) =>
        /\/assets\/(mui|emotion)[^/]*\.js$/.test(new URL(s.url).pathname),
      );
      expect(muiScripts.map((s) => s.url)).toEqual([]);
    }

    expect(landedOn, 'the page did not redirect elsewhere').toBe(path.split('?')[0]);
    expect(scripts.length).toBeGreaterThan(0);
    // The app serves its precompressed files: a script sent uncompressed means the measure is not the real one.
    const uncompressed = scripts.filter((s) => !s.isSmall && !/^(br|gzip|zstd)$/.test(s.encoding));
    expect(uncompressed.map((s) => s.url)).toEqual([]);
    const total = scripts.reduce((sum, script) => sum + (script.bytes ?? 0), 0);
    const encodings = [...new Set(scripts.map((script) => script.encoding))].join('/');
    console.info(
      `JS budget ${entry.route.padEnd(18)} ${path.padEnd(40)} ${(total / KB).toFixed(1).padStart(6)} KB of ${budget / KB} KB (${scripts.length} scripts, ${encodings})`,
    );
    test.info().annotations.push({ type: 'js-transferred-kb', description: (total / KB).toFixed(1) });
    const largest = scripts
      .sort((a, b) => (b.bytes ?? 0) - (a.bytes ?? 0))
      .slice(0, 12)
      .map((script) => `${((script.bytes ?? 0) / KB).toFixed(1)} KB ${new URL(script.url).pathname}`);
    const report = `${path} transferred ${(total / KB).toFixed(1)} KB of JS; the largest:\n${largest.join('\n')}`;
    expect(total, report).toBeLessThanOrEqual(budget);
  });
}
