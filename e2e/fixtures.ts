import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type APIRequestContext, test as base, expect, type Page, type Request } from '@playwright/test';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import * as OTPAuth from 'otpauth';
import { waitForMailLink } from './mailbox';
import { ARTIFACTS, readServerState, TOTP_SECRETS_FILE } from './server-state';
import { demoPassword } from './spawned-api';

/** Read on use, not at import: test files may be collected before the global setup has started the server. */
export const server = {
  get baseURL(): string {
    return readServerState().baseURL;
  },
  get dataDir(): string {
    return readServerState().dataDir;
  },
};
export const SCREENSHOTS = join(ARTIFACTS, 'screenshots');
mkdirSync(SCREENSHOTS, { recursive: true });

export interface TestUser {
  email: string;
  password: string;
  name: string;
}

export const newUser = (): TestUser => ({
  email: `e2e-${randomBytes(5).toString('hex')}@example.com`,
  password: `Pw-${randomBytes(9).toString('base64url')}`,
  name: '김안심',
});

export async function csrfHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  await request.get('/api/csrf');
  const { cookies } = await request.storageState();
  const token = cookies.find((cookie) => cookie.name === 'csrftoken')?.value;
  if (!token) throw new Error('GET /api/csrf set no csrftoken cookie');
  return { 'X-CSRFToken': token };
}

/** A demo account's one-time password, from the log of the global setup's server (printed at its first start). */
function demoAccount(email: string, name: string): TestUser {
  return { email, password: demoPassword(readFileSync(readServerState().logFile, 'utf8'), email), name };
}

/** The demo manager of 데모 주식회사. */
export const demoManager = (): TestUser => demoAccount('manager@demo.example', '김담당');

/**
 * The demo company's admin (role `admin`): handles cases like a manager and runs the settings. Like every
 * handler it needs a second factor: `ensureManagerTotp` enrols one.
 */
export const demoAdmin = (): TestUser => demoAccount('admin@demo.example', '박관리');

/** The platform's operator (no company), for the console at /operator; `ensureManagerTotp` enrols TOTP. */
export const demoOperator = (): TestUser => demoAccount('operator@ansim.example', '안심운영');

/** A confirmed account made through the API (the register journey itself is tested through the UI). */
export async function createConfirmedUser(
  request: APIRequestContext,
  user: TestUser = newUser(),
): Promise<TestUser> {
  const headers = await csrfHeaders(request);
  const created = await request.post('/api/v1/user/', { headers, data: user });
  expect(created.status(), await created.text()).toBe(201);
  const link = await waitForMailLink(server.dataDir, user.email, '/register/confirm');
  const token = new URL(link).searchParams.get('token')!;
  const confirmed = await request.post('/api/v1/user/email/confirm-email', { headers, data: { token } });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  return user;
}

/** The demo company's mail domain: the server seeds it on a fresh embedded database (apps/api/src/seed.ts). */
export const DEMO_COMPANY_DOMAIN = 'demo.example';

/**
 * A confirmed member of 데모 주식회사: registering with an address on its domain places the user in it. A spec
 * that picks the person by name on a page gives a name of its own.
 */
export const createCompanyMember = (
  request: APIRequestContext,
  overrides: Partial<Pick<TestUser, 'name'>> = {},
): Promise<TestUser> =>
  createConfirmedUser(request, {
    ...newUser(),
    email: `e2e-${randomBytes(5).toString('hex')}@${DEMO_COMPANY_DOMAIN}`,
    ...overrides,
  });

/**
 * Waits for the ALTCHA widget to solve its proof of work; clicks it if it has not started by itself. The
 * widget loads when the form is first touched; on a form with nothing else to fill, ticking the stand-in box
 * loads it, as a person would.
 */
/**
 * Waits until what the page shows has stopped moving: its fonts are in, and every transition or animation
 * that ends has ended. axe judges contrast from computed colours and opacity, so a snackbar still fading in
 * over text reads as a contrast failure; screenshots likewise. Endless animations (a spinner, a skeleton's
 * pulse) are not waited for.
 */
export async function pageAtRest(page: Page): Promise<void> {
  // A prerendered page is inert, and out of the accessibility tree, until the app has taken it over (decision 0020).
  await page.waitForFunction(() => !document.getElementById('root')?.hasAttribute('inert'));
  await page.evaluate(() => document.fonts.ready);
  // Polled, not awaited through `finished`: a paused or never-started animation would hold that promise forever.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          !Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity),
      ),
  );
}

export async function solveCaptcha(page: Page): Promise<void> {
  const widget = page.locator('altcha-widget');
  const standIn = page.getByTestId('captcha-standin');
  await expect(widget.or(standIn).first()).toBeVisible();
  // The widget may arrive between the look and the tick (a focus armed it): then there is nothing to tick.
  if ((await widget.count()) === 0)
    await standIn
      .getByRole('checkbox')
      .click({ timeout: 5_000 })
      .catch(() => undefined);
  await widget.waitFor();
  const isVerified = () =>
    page
      .evaluate(() => document.querySelector('altcha-widget')?.getState?.() === 'verified')
      .catch(() => false);
  try {
    await page.waitForFunction(
      () => document.querySelector('altcha-widget')?.getState?.() === 'verified',
      null,
      {
        timeout: 8_000,
      },
    );
    return;
  } catch {
    if (await isVerified()) return;
  }
  await widget.locator('input[type="checkbox"]').first().click({ force: true });
  await page.waitForFunction(
    () => document.querySelector('altcha-widget')?.getState?.() === 'verified',
    null,
    {
      timeout: 30_000,
    },
  );
}

/**
 * TOTP secrets the specs enrolled, with the last 30-second step each used, in a file beside the server state:
 * the server accepts a code once per step, and every spec (and a restarted worker) must know what was used.
 */
const MFA_FILE = TOTP_SECRETS_FILE;
type MfaStore = Record<string, { secret: string; lastStep: number }>;
const mfaKey = (baseURL: string, email: string) => `${baseURL} ${email.toLowerCase()}`;
const readMfa = (): MfaStore => (existsSync(MFA_FILE) ? JSON.parse(readFileSync(MFA_FILE, 'utf8')) : {});

export function rememberTotp(baseURL: string, email: string, secret: string, lastStep: number): void {
  writeFileSync(MFA_FILE, JSON.stringify({ ...readMfa(), [mfaKey(baseURL, email)]: { secret, lastStep } }));
}

export function hasTotp(baseURL: string, email: string): boolean {
  return mfaKey(baseURL, email) in readMfa();
}

export const totpStep = (): number => Math.floor(Date.now() / 30_000);

export function totpCodeAt(secret: string, step: number): string {
  return OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: step * 30_000 });
}

/**
 * A code of a step not used yet: the current one or the next (the server accepts one step either way). When
 * both were used, waits until the clock makes the step after them acceptable.
 */
export async function freshTotpCode(baseURL: string, email: string): Promise<string> {
  const entry = readMfa()[mfaKey(baseURL, email)];
  if (!entry) throw new Error(`${email} has no TOTP enrolled by the specs`);
  const step = Math.max(totpStep(), entry.lastStep + 1);
  if (step > totpStep() + 1)
    await expect.poll(() => totpStep(), { timeout: 35_000 }).toBeGreaterThanOrEqual(step - 1);
  rememberTotp(baseURL, email, entry.secret, step);
  return totpCodeAt(entry.secret, step);
}

/** Solves the server's ALTCHA proof of work the way the login widget does. */
export async function apiCaptcha(request: APIRequestContext): Promise<string> {
  const challenge = await (await request.get('/api/v1/captcha/challenge')).json();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('captcha not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** Logs in through the API, answering the second step with a fresh TOTP code when the server asks for it. */
export async function loginThroughApi(
  request: APIRequestContext,
  baseURL: string,
  user: TestUser,
): Promise<void> {
  const headers = await csrfHeaders(request);
  const first = await request.post('/api/v1/token/', {
    headers,
    data: { email: user.email, password: user.password, captcha: await apiCaptcha(request) },
  });
  expect(first.status(), await first.text()).toBe(200);
  if (!((await first.json()) as { mfa_required?: boolean }).mfa_required) return;
  const second = await request.post('/api/v1/token/mfa', {
    headers,
    data: { code: await freshTotpCode(baseURL, user.email) },
  });
  expect(second.status(), await second.text()).toBe(200);
}

/**
 * Managers must have a second factor (R-ACC-7), and so must admins and the operator: logs the user in through
 * the API and enrols TOTP, unless a spec already did on this server. Returns the logged-in request context's state.
 */
export async function ensureManagerTotp(request: APIRequestContext, baseURL: string, user: TestUser) {
  await loginThroughApi(request, baseURL, user);
  if (hasTotp(baseURL, user.email)) return;
  const headers = await csrfHeaders(request);
  const started = await request.post('/api/v1/user/mfa/totp/', { headers });
  expect(started.status(), await started.text()).toBe(200);
  const { secret } = (await started.json()) as { secret: string };
  const step = totpStep();
  const confirmed = await request.post('/api/v1/user/mfa/totp/confirm', {
    headers,
    data: { code: totpCodeAt(secret, step), password: user.password },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  rememberTotp(baseURL, user.email, secret, step);
}

/** Fills the login form; when the account has TOTP enrolled by a spec, answers the second step too. */
export async function loginThroughUi(page: Page, user: TestUser): Promise<void> {
  await page.getByLabel('이메일').fill(user.email);
  await page.getByLabel('비밀번호').fill(user.password);
  await solveCaptcha(page);
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  const baseURL = new URL(page.url()).origin;
  if (!hasTotp(baseURL, user.email)) return;
  await page.getByLabel('인증 코드 또는 복구 코드').fill(await freshTotpCode(baseURL, user.email));
  await page.getByRole('button', { name: '확인', exact: true }).click();
}

/**
 * Follows every request the page starts; `settled()` resolves once the page has loaded and none is in flight.
 * A spec that moves a clock or scans the page waits for this, so no start-up request lands after the move.
 */
export function trackRequests(page: Page): { settled: () => Promise<void> } {
  const inFlight = new Set<Request>();
  page.on('request', (request) => inFlight.add(request));
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  return {
    settled: async () => {
      await page.waitForLoadState('load');
      await expect.poll(() => inFlight.size).toBe(0);
    },
  };
}

export const test = base.extend<{ user: TestUser; member: TestUser }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the fixtures argument to be destructured.
  baseURL: async ({}, use) => use(server.baseURL),
  user: async ({ playwright }, use) => {
    const request = await playwright.request.newContext({ baseURL: server.baseURL });
    await use(await createConfirmedUser(request));
    await request.dispose();
  },
  member: async ({ playwright }, use) => {
    const request = await playwright.request.newContext({ baseURL: server.baseURL });
    await use(await createCompanyMember(request));
    await request.dispose();
  },
});

export { expect };
