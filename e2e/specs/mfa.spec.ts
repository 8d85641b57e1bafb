import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import {
  expect,
  loginThroughUi,
  pageAtRest,
  rememberTotp,
  SCREENSHOTS,
  solveCaptcha,
  type TestUser,
  test,
  totpCodeAt,
  totpStep,
} from '../fixtures';

/**
 * R-ACC-7 end to end. Each manager is the demo manager of a server started here on a fresh data directory,
 * so each starts with no second factor, exactly as after `npm start`. The servers' address is `localhost`:
 * WebAuthn refuses an IP address as relying-party id, and PUBLIC_URL names the relying party.
 */

const ROOT = join(import.meta.dirname, '../..');

interface Api {
  child: ChildProcess;
  baseURL: string;
  dataDir: string;
  stdout: string;
}

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

async function startApi(): Promise<Api> {
  const port = await freePort();
  const baseURL = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'ansim-e2e-mfa-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseURL,
      // development: the first start prints the demo accounts (and their one-time passwords) to stdout.
      NODE_ENV: 'development',
      WEB_DIST: join(ROOT, 'apps/web/dist'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const api: Api = { child, baseURL, dataDir, stdout: '' };
  const collect = (chunk: Buffer) => {
    api.stdout += chunk.toString('utf8');
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`API server exited early:\n${api.stdout}`);
        return fetch(`http://127.0.0.1:${port}/api/health`)
          .then((response) => response.ok)
          .catch(() => false);
      },
      { timeout: 90_000 },
    )
    .toBe(true);
  return api;
}

async function stopApi(api: Api | undefined): Promise<void> {
  if (!api) return;
  if (api.child.exitCode === null) {
    const exited = new Promise((resolve) => api.child.once('exit', resolve));
    api.child.kill('SIGTERM');
    await exited;
  }
  rmSync(api.dataDir, { recursive: true, force: true });
}

function demoManager(api: Api): TestUser {
  const match = /manager@demo\.example\s+비밀번호 password: (\S+)/.exec(api.stdout);
  if (!match) throw new Error(`The server printed no demo manager account:\n${api.stdout}`);
  return { email: 'manager@demo.example', password: match[1]!, name: '김담당' };
}

async function newPage(browser: Browser, api: Api): Promise<Page> {
  const context = await browser.newContext({ baseURL: api.baseURL, viewport: { width: 1280, height: 900 } });
  return context.newPage();
}

async function logOut(page: Page): Promise<void> {
  await page.goto('/logout');
  await expect(
    page.getByText('로그아웃되었습니다. 이 기기에 임시 저장된 신고 초안도 함께 삭제했습니다.'),
  ).toBeVisible();
}

/** The password step only; the page then shows the second step. */
async function passwordStep(page: Page, user: TestUser): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('이메일').fill(user.email);
  await page.getByLabel('비밀번호').fill(user.password);
  await solveCaptcha(page);
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page.getByTestId('mfa-step')).toBeVisible();
}

let totpApi: Api | undefined;
let passkeyApi: Api | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // Two servers start side by side (migrations, seed, argon2): on a busy machine this takes a while.
  test.setTimeout(180_000);
  [totpApi, passkeyApi] = await Promise.all([startApi(), startApi()]);
});

test.afterAll(async () => {
  await Promise.all([stopApi(totpApi), stopApi(passkeyApi)]);
});

test('a manager is sent to enrolment, enrols TOTP, logs in with a code, and uses a recovery code once', async ({
  browser,
}) => {
  const api = totpApi!;
  const manager = demoManager(api);
  const page = await newPage(browser, api);

  // First login: the password alone opens a session, and the manager lands on enrolment.
  await page.goto('/login');
  await loginThroughUi(page, manager);
  await expect(page).toHaveURL(/\/account\/security$/);
  await expect(page.getByTestId('mfa-required')).toBeVisible();
  // The manager pages send the manager back here until a second factor exists.
  await page.goto('/manager');
  await expect(page).toHaveURL(/\/account\/security$/);

  await page.getByRole('button', { name: '인증 앱 등록하기' }).click();
  await expect(page.getByRole('img', { name: '인증 앱 등록용 QR 코드' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  // The enrolment screen, as a manager sees it, at both widths: no axe violation, and a screenshot.
  await pageAtRest(page);
  for (const viewport of [
    { label: '1280', width: 1280, height: 900 },
    { label: '375', width: 375, height: 812 },
  ]) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await expect(page.locator('h1')).toHaveCount(1);
    const results = await new AxeBuilder({ page }).analyze();
    expect(
      results.violations.map((violation) => ({
        id: violation.id,
        nodes: violation.nodes.map((node) => node.target.join(' ')),
      })),
      `enrolment at ${viewport.label}px`,
    ).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, `mfa-enrolment-${viewport.label}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  const step = totpStep();
  const totpSection = page.getByTestId('totp-section');
  await totpSection.getByLabel('인증 앱에 표시된 6자리 숫자').fill(totpCodeAt(secret, step));
  await totpSection.getByLabel('현재 비밀번호').fill(manager.password);
  await totpSection.getByRole('button', { name: '등록 완료' }).click();
  const codes = page.getByTestId('recovery-codes').locator('li');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = await codes.allTextContents();
  await page.getByRole('button', { name: '보관했습니다' }).click();
  await expect(page.getByTestId('recovery-left')).toHaveText('사용할 수 있는 복구 코드: 10개');
  rememberTotp(api.baseURL, manager.email, secret, step);
  await page.goto('/manager');
  await expect(page.getByRole('heading', { level: 1, name: '회사 신고 관리' })).toBeVisible();

  // Password and a code: the shared login helper answers the second step with a fresh code.
  await logOut(page);
  await page.goto('/login');
  await loginThroughUi(page, manager);
  // An enrolled manager's home after login is the manager page.
  await expect(page).toHaveURL(/\/manager$/);
  await expect(page.getByRole('heading', { level: 1, name: '회사 신고 관리' })).toBeVisible();

  // A recovery code works once; the second time it is refused.
  await logOut(page);
  await passwordStep(page, manager);
  await page.getByLabel('인증 코드 또는 복구 코드').fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: '확인', exact: true }).click();
  await expect(page).toHaveURL(/\/manager$/);
  await page.goto('/account/security');
  await expect(page.getByTestId('recovery-left')).toHaveText('사용할 수 있는 복구 코드: 9개');

  await logOut(page);
  await passwordStep(page, manager);
  await page.getByLabel('인증 코드 또는 복구 코드').fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: '확인', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('인증 코드가 올바르지 않거나 이미 사용되었습니다.');
  await expect(page).toHaveURL(/\/login$/);
  await page.context().close();
});

test('a second manager enrols a passkey with the virtual authenticator and logs in with it', async ({
  browser,
}) => {
  const api = passkeyApi!;
  const manager = demoManager(api);
  const page = await newPage(browser, api);
  // Chromium's virtual authenticator: a platform authenticator that answers every prompt at once.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  await page.goto('/login');
  await loginThroughUi(page, manager);
  await expect(page).toHaveURL(/\/account\/security$/);
  const section = page.getByTestId('passkey-section');
  await section.getByLabel('패스키 이름').fill('업무용 노트북');
  await section.getByLabel('현재 비밀번호').fill(manager.password);
  await section.getByRole('button', { name: '패스키 등록하기' }).click();
  // The first factor of the account comes with recovery codes.
  await expect(page.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
  await page.getByRole('button', { name: '보관했습니다' }).click();
  await expect(section.getByText('업무용 노트북')).toBeVisible();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);

  await logOut(page);
  await passwordStep(page, manager);
  await page.getByRole('button', { name: '패스키 사용하기' }).click();
  await expect(page).toHaveURL(/\/manager$/);
  await expect(page.getByRole('heading', { level: 1, name: '회사 신고 관리' })).toBeVisible();
  const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(after.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);

  // New recovery codes, then removing the only factor: each needs the password, and without a factor the
  // manager pages send the manager back to enrolment.
  await page.goto('/account/security');
  const recovery = page.getByTestId('recovery-section');
  await recovery.getByLabel('현재 비밀번호').fill(manager.password);
  await recovery.getByRole('button', { name: '복구 코드 새로 발급' }).click();
  await expect(page.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
  await page.getByRole('button', { name: '보관했습니다' }).click();
  await section.getByRole('button', { name: '업무용 노트북 삭제' }).click();
  await section.getByLabel('현재 비밀번호').first().fill('wrong-password-1');
  await section.getByRole('button', { name: '삭제', exact: true }).click();
  await expect(section.getByRole('alert')).toBeVisible();
  await section.getByLabel('현재 비밀번호').first().fill(manager.password);
  await section.getByRole('button', { name: '삭제', exact: true }).click();
  await expect(section.getByText('업무용 노트북')).toHaveCount(0);
  await expect(page.getByTestId('mfa-required')).toBeVisible();
  await page.goto('/manager');
  await expect(page).toHaveURL(/\/account\/security$/);
  await page.context().close();
});
