import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { expect, freshTotpCode, rememberTotp, SCREENSHOTS, test, totpCodeAt, totpStep } from '../fixtures';
import { type SmtpMailbox, startSmtpMailbox } from '../smtp-mailbox';

/**
 * Issue 13, steps 3 to 5, with mails read from a real SMTP server: the company's admin invites a manager; the
 * manager accepts the mailed link, enrols a second factor and sees the case list; the admin rotates the join
 * code and the old one stops working. The admin is the demo manager of a fresh server, made `admin` with the
 * CLI (`user:set-role`), as an operator's recovery would; steps 1 and 2 (operator console) are its own spec.
 */

const ROOT = join(import.meta.dirname, '../..');
const suffix = randomBytes(3).toString('hex');
const ADMIN_EMAIL = 'manager@demo.example';
const NEW_MANAGER = {
  email: `new-manager-${suffix}@demo.example`,
  name: `정담당${suffix}`,
  password: `Pw-${randomBytes(9).toString('base64url')}`,
};

let smtp: SmtpMailbox;
let api: { child: ChildProcess; baseURL: string; dataDir: string; stdout: string };
let adminPassword: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function serverEnv(port: number, dataDir: string, smtpPort: number) {
  return {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    NODE_ENV: 'development',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    WEB_DIST: join(ROOT, 'apps/web/dist'),
    LOG_LEVEL: 'warn',
  };
}

async function startApi(port: number, dataDir: string, smtpPort: number) {
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: ROOT,
    env: serverEnv(port, dataDir, smtpPort),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const state = { child, baseURL, dataDir, stdout: '' };
  child.stdout!.on('data', (chunk: Buffer) => {
    state.stdout += chunk.toString('utf8');
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    state.stdout += chunk.toString('utf8');
  });
  const died = new Promise<never>((_, reject) => {
    child.once('exit', () => reject(new Error(`API server exited early:\n${state.stdout}`)));
  });
  const healthy = expect
    .poll(
      () =>
        fetch(`${baseURL}/api/health`)
          .then((response) => response.ok)
          .catch(() => false),
      { message: 'API server healthy', timeout: 180_000, intervals: [250] },
    )
    .toBe(true);
  await Promise.race([healthy, died]);
  return state;
}

async function stopApi(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function csrf(context: APIRequestContext): Promise<Record<string, string>> {
  await context.get('/api/csrf');
  const token = (await context.storageState()).cookies.find((cookie) => cookie.name === 'csrftoken')?.value;
  if (!token) throw new Error('no csrftoken cookie');
  return { 'X-CSRFToken': token };
}

async function captcha(context: APIRequestContext): Promise<string> {
  const challenge = await (await context.get('/api/v1/captcha/challenge')).json();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('captcha not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** Enrols TOTP for the logged-in account of `context` and returns its secret. */
async function enrolTotp(context: APIRequestContext, password: string, step: number): Promise<string> {
  const headers = await csrf(context);
  const started = await context.post('/api/v1/user/mfa/totp/', { headers });
  expect(started.status(), await started.text()).toBe(200);
  const { secret } = (await started.json()) as { secret: string };
  const confirmed = await context.post('/api/v1/user/mfa/totp/confirm', {
    headers,
    data: { code: totpCodeAt(secret, step), password },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  return secret;
}

const VIEWPORTS = [
  { label: '1280', width: 1280, height: 900 },
  { label: '375', width: 375, height: 812 },
];

/** axe with no violations, nothing sticking out sideways, and a full-page screenshot at both widths. */
async function checkScreen(page: Page, name: string) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await expect(page.locator('h1')).toHaveCount(1);
    await page.evaluate(() => document.fonts.ready);
    const results = await new AxeBuilder({ page }).analyze();
    const summary = results.violations.map((violation) => ({
      id: violation.id,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
    expect(summary, `${name} at ${viewport.label}px`).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} overflows at ${viewport.label}px`).toBeLessThanOrEqual(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: join(SCREENSHOTS, `settings-${name}-${viewport.label}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: api.baseURL, viewport: { width: 1280, height: 900 } });
  const request = context.request;
  const headers = await csrf(request);
  const first = await request.post('/api/v1/token/', {
    headers,
    data: { email: ADMIN_EMAIL, password: adminPassword, captcha: await captcha(request) },
  });
  expect(first.status(), await first.text()).toBe(200);
  if ((await first.json()).mfa_required) {
    const second = await request.post('/api/v1/token/mfa', {
      headers,
      data: { code: await freshTotpCode(api.baseURL, ADMIN_EMAIL) },
    });
    expect(second.status(), await second.text()).toBe(200);
  }
  return context.newPage();
}

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test.beforeAll(async () => {
  test.setTimeout(480_000);
  smtp = await startSmtpMailbox();
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'ansim-e2e-company-admin-'));
  const first = await startApi(port, dataDir, smtp.port);
  const match = /manager@demo\.example\s+비밀번호 password: (\S+)/.exec(first.stdout);
  if (!match) throw new Error(`The server printed no demo manager account:\n${first.stdout}`);
  adminPassword = match[1]!;
  await stopApi(first.child);
  // The CLI is how a company gets its admin without an operator (recovery); the data directory is free now.
  const setRole = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'apps/api/src/cli.ts', 'user:set-role', '--email', ADMIN_EMAIL, '--role', 'admin'],
    { cwd: ROOT, env: serverEnv(port, dataDir, smtp.port), encoding: 'utf8' },
  );
  expect(setRole.status, `${setRole.stdout}\n${setRole.stderr}`).toBe(0);
  api = await startApi(port, dataDir, smtp.port);
  const context = (await import('@playwright/test')).request;
  const admin = await context.newContext({ baseURL: api.baseURL });
  const login = await admin.post('/api/v1/token/', {
    headers: await csrf(admin),
    data: { email: ADMIN_EMAIL, password: adminPassword, captcha: await captcha(admin) },
  });
  expect(login.status(), await login.text()).toBe(200);
  const enrolledAt = totpStep();
  rememberTotp(api.baseURL, ADMIN_EMAIL, await enrolTotp(admin, adminPassword, enrolledAt), enrolledAt);
  await admin.dispose();
});

test.afterAll(async () => {
  if (api) {
    await stopApi(api.child);
    rmSync(api.dataDir, { recursive: true, force: true });
  }
  await smtp?.close();
});

test('(3) the admin opens the settings from the case list and invites a manager', async ({ browser }) => {
  const page = await adminPage(browser);
  await page.goto('/manager');
  await page.getByTestId('settings-link').click();
  await expect(page).toHaveURL(/\/manager\/settings/);
  await expect(page.getByRole('heading', { level: 1, name: '회사 설정' })).toBeVisible();
  await expect(page.getByTestId('people-table')).toContainText(ADMIN_EMAIL);
  await checkScreen(page, 'people');

  await page.getByTestId('invite-email').fill(NEW_MANAGER.email);
  await page.getByTestId('invite-role').selectOption('manager');
  await page.getByRole('button', { name: '초대 메일 보내기' }).click();
  await expect(page.getByRole('list', { name: '수락을 기다리는 초대' })).toContainText(NEW_MANAGER.email);

  for (const tab of ['도메인', '기한·보관', '안내 문구', '변경 기록'] as const) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
  }
  await expect(page.getByTestId('audit-table')).toContainText('담당자 초대');
  await checkScreen(page, 'audit');
  await page.context().close();
});

test('(4) the manager accepts the mailed invitation, enrols a second factor and sees the case list', async ({
  browser,
}) => {
  const mail = await smtp.waitFor(NEW_MANAGER.email, (received) => received.text.includes('/join/'));
  const link = /https?:\/\/\S+\/join\/[A-Za-z0-9_%-]+/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  const context = await browser.newContext({ baseURL: api.baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(link!);
  await page.getByLabel('이름').fill(NEW_MANAGER.name);
  // The password field comes before its confirmation, whose label also contains "비밀번호".
  await page.getByLabel('비밀번호').first().fill(NEW_MANAGER.password);
  await page.getByLabel('비밀번호 확인').fill(NEW_MANAGER.password);
  await page.getByRole('button', { name: '계정 만들고 초대 수락하기' }).click();
  // A handler must enrol a second factor before any case: the page sends them to the security settings.
  await expect(page).toHaveURL(/\/account\/security/);
  await enrolTotp(context.request, NEW_MANAGER.password, totpStep());
  await page.goto('/manager');
  await expect(page.getByRole('heading', { name: '사건 목록' })).toBeVisible();
  // A manager is no admin: no settings link, and the settings page says so.
  await expect(page.getByTestId('settings-link')).toHaveCount(0);
  await page.goto('/manager/settings');
  await expect(
    page.getByRole('heading', { level: 1, name: '회사 관리자만 볼 수 있는 페이지입니다' }),
  ).toBeVisible();
  await context.close();
});

test('(5) the admin rotates the join code, and the old code stops working', async ({ browser }) => {
  const page = await adminPage(browser);
  await page.goto('/manager/settings?tab=joinCode');
  const oldCode = (await page.getByTestId('join-code').textContent())!.trim();
  // The on-screen code, by its name; the print-only notice holds a second one, hidden from view and from AT.
  await expect(page.getByRole('img', { name: /익명 신고 접수 링크 QR 코드$/ }).locator('svg')).toBeVisible();
  await checkScreen(page, 'join-code');
  await page.getByRole('button', { name: '새 코드로 바꾸기' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '새 코드로 바꾸기' }).click();
  await expect(page.getByTestId('join-code')).not.toHaveText(oldCode);
  const newCode = (await page.getByTestId('join-code').textContent())!.trim();

  // Registering with the old code creates no account: the address is told the code is unknown.
  const visitor = page.context().request;
  const lateEmail = `late-${suffix}@elsewhere.example`;
  const registered = await visitor.post('/api/v1/user/', {
    headers: await csrf(visitor),
    data: { email: lateEmail, password: NEW_MANAGER.password, name: '늦은 가입', join_code: oldCode },
  });
  expect(registered.status()).toBe(201);
  const refusal = await smtp.waitFor(lateEmail);
  expect(refusal.subject).toContain('가입 코드를 다시 확인해주세요');
  // The new code works.
  const joinerEmail = `joiner-${suffix}@elsewhere.example`;
  await visitor.post('/api/v1/user/', {
    headers: await csrf(visitor),
    data: { email: joinerEmail, password: NEW_MANAGER.password, name: '새 가입', join_code: newCode },
  });
  expect((await smtp.waitFor(joinerEmail)).text).toContain('/register/confirm');
  await page.context().close();
});
