import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test';
import { waitForMailLink } from './mailbox';
import { ARTIFACTS, readServerState } from './server-state';

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

async function csrfHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  await request.get('/api/csrf');
  const { cookies } = await request.storageState();
  const token = cookies.find((cookie) => cookie.name === 'csrftoken')?.value;
  if (!token) throw new Error('GET /api/csrf set no csrftoken cookie');
  return { 'X-CSRFToken': token };
}

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

/** A confirmed member of 데모 주식회사: registering with an address on its domain places the user in it. */
export const createCompanyMember = (request: APIRequestContext): Promise<TestUser> =>
  createConfirmedUser(request, {
    ...newUser(),
    email: `e2e-${randomBytes(5).toString('hex')}@${DEMO_COMPANY_DOMAIN}`,
  });

/** Waits for the ALTCHA widget to solve its proof of work; clicks it if it has not started by itself. */
export async function solveCaptcha(page: Page): Promise<void> {
  const widget = page.locator('altcha-widget');
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

export async function loginThroughUi(page: Page, user: TestUser): Promise<void> {
  await page.getByLabel('이메일').fill(user.email);
  await page.getByLabel('비밀번호').fill(user.password);
  await solveCaptcha(page);
  await page.getByRole('button', { name: '로그인', exact: true }).click();
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
