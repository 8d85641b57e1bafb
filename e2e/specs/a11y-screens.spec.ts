import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContextOptions } from '@playwright/test';
import {
  createConfirmedUser,
  expect,
  loginThroughUi,
  pageAtRest,
  SCREENSHOTS,
  server,
  test,
  trackRequests,
} from '../fixtures';

interface Screen {
  name: string;
  path: string;
  loggedIn?: boolean;
  /** Draft state some pages need to be reachable (the report-type guard). */
  reportType?: string;
}

const SCREENS: Screen[] = [
  { name: 'index', path: '/' },
  { name: 'login', path: '/login' },
  { name: 'register', path: '/register' },
  { name: 'register-confirm', path: '/register/confirm?token=not-a-real-token' },
  { name: 'forgot-password', path: '/forgot-password' },
  { name: 'reset-password', path: '/reset-password?token=not-a-real-token' },
  { name: 'report', path: '/report' },
  { name: 'reference', path: '/reference' },
  { name: 'reference-a', path: '/reference/a?token=invitation-token' },
  { name: 'defendant', path: '/defendant' },
  { name: 'defendant-a', path: '/defendant/a' },
  { name: 'not-found', path: '/no-such-page' },
  { name: 'dashboard', path: '/dashboard', loggedIn: true },
  { name: 'account-security', path: '/account/security', loggedIn: true },
  { name: 'report-t', path: '/report/t', loggedIn: true, reportType: 'formal' },
  { name: 'report-t-a', path: '/report/t/a', loggedIn: true, reportType: 'brief' },
  { name: 'manager', path: '/manager', loggedIn: true },
  { name: 'manager-detail-id', path: '/manager/detail/1', loggedIn: true },
  { name: 'report-detail-id', path: '/report-detail/1', loggedIn: true },
  { name: 'logout', path: '/logout', loggedIn: true },
];

const VIEWPORTS = [
  { label: '1280', width: 1280, height: 900 },
  { label: '375', width: 375, height: 812 },
];

let loggedInState: Awaited<ReturnType<import('@playwright/test').BrowserContext['storageState']>>;

async function logIn(browser: Browser) {
  const context = await browser.newContext({ baseURL: server.baseURL });
  const user = await createConfirmedUser(context.request);
  const page = await context.newPage();
  await page.goto('/login');
  await loginThroughUi(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  const state = await context.storageState();
  await context.close();
  return state;
}

test.beforeAll(async ({ browser }) => {
  loggedInState = await logIn(browser);
});

for (const screen of SCREENS) {
  test(`axe: 0 violations and screenshots — ${screen.name}`, async ({ browser }) => {
    for (const viewport of VIEWPORTS) {
      // Logout ends the session it runs in, so each viewport needs its own.
      const storageState = screen.loggedIn
        ? screen.name === 'logout'
          ? await logIn(browser)
          : loggedInState
        : undefined;
      const options: BrowserContextOptions = {
        baseURL: server.baseURL,
        viewport: { width: viewport.width, height: viewport.height },
        storageState,
      };
      const context = await browser.newContext(options);
      if (screen.reportType) {
        await context.addInitScript((type) => {
          localStorage.setItem('ansim.reportDraft.report_type', JSON.stringify(type));
        }, screen.reportType);
      }
      const page = await context.newPage();
      const requests = trackRequests(page);
      await page.goto(screen.path);
      await expect(page.locator('h1')).toHaveCount(1);
      // The page has rendered and every request it started has ended: the scan sees the loaded data.
      await requests.settled();
      await pageAtRest(page);
      if (screen.name === 'login') {
        // The captcha loads once the form is touched: the scan sees the form as someone filling it does.
        await page.getByLabel('이메일').focus();
        await page.waitForFunction(
          () => document.querySelector('altcha-widget')?.getState?.() === 'verified',
        );
      }
      const results = await new AxeBuilder({ page }).analyze();
      const summary = results.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        nodes: violation.nodes.map((node) => node.target.join(' ')),
      }));
      expect(summary, `${screen.path} at ${viewport.label}px`).toEqual([]);
      await page.screenshot({
        path: join(SCREENSHOTS, `${screen.name}-${viewport.label}.png`),
        fullPage: true,
      });
      await context.close();
    }
  });
}
