import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, type Page, request } from '@playwright/test';
import {
  ensureManagerTotp,
  expect,
  loginThroughUi,
  rememberTotp,
  SCREENSHOTS,
  type TestUser,
  test,
  totpCodeAt,
  totpStep,
} from '../fixtures';
import { type ReceivedMail, type SmtpMailbox, startSmtpMailbox } from '../smtp-mailbox';

/**
 * Issue 13 end to end, with a real SMTP server receiving every mail of an API server started for this spec (its
 * own data directory, so the demo operator it prints is fresh):
 *   1. the operator (TOTP) creates a company in the console;
 *   2. its admin accepts the mailed invitation, sets a password on /join/…, enrols MFA.
 * The steps run in order and share `journey`; later steps (the admin invites a manager, …) are added below as
 * further tests and use the same helpers.
 */

const ROOT = join(import.meta.dirname, '../..');
const suffix = randomBytes(3).toString('hex');

/** What the steps hand on to each other. */
const journey = {
  operator: { email: 'operator@ansim.example', password: '', name: '안심운영' } as TestUser,
  company: { name: `한빛물산${suffix}`, domain: `hanbit-${suffix}.example`, joinCode: '' },
  admin: {
    email: `hr-${suffix}@hanbit-${suffix}.example`,
    password: `Pw-${randomBytes(9).toString('base64url')}`,
    name: '정관리',
  } as TestUser,
};

let smtp: SmtpMailbox;
let api: { child: ChildProcess; baseURL: string; dataDir: string; stdout: string };

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

async function startApi(smtpPort: number) {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'ansim-e2e-company-admin-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: baseURL,
      // development: the first start prints the demo accounts (and their one-time passwords) to stdout.
      NODE_ENV: 'development',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      WEB_DIST: join(ROOT, 'apps/web/dist'),
      LOG_LEVEL: 'warn',
      ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '100000',
      LOGIN_LIMIT_PER_IP_PER_MINUTE: '1000',
    },
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
      { message: 'API server healthy', timeout: 90_000, intervals: [250] },
    )
    .toBe(true);
  await Promise.race([healthy, died]);
  return state;
}

/** A demo account's one-time password, as the server printed it at its first start. */
function demoPassword(stdout: string, email: string): string {
  const match = new RegExp(`${email.replace(/[.]/g, '\\.')}\\s+비밀번호 password: (\\S+)`).exec(stdout);
  if (!match) throw new Error(`The server printed no demo account ${email}:\n${stdout}`);
  return match[1]!;
}

/** The `/join/{token}` link of the newest company invitation mailed to `email`. */
export async function joinLinkFor(email: string): Promise<string> {
  const mail = await smtp.waitFor(email, (m: ReceivedMail) => /\/join\/[A-Za-z0-9_-]+/.test(m.text));
  const match = /https?:\/\/[^\s"'<>]+\/join\/[A-Za-z0-9_-]+/.exec(mail.text);
  if (!match) throw new Error(`No /join link in "${mail.subject}"`);
  return match[0];
}

const VIEWPORTS = [
  { label: '1280', width: 1280, height: 900 },
  { label: '375', width: 375, height: 812 },
];

/** axe with no violations, nothing sticking out sideways, and a full-page screenshot at both widths. */
export async function checkScreen(page: Page, name: string) {
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
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${viewport.label}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ baseURL: api.baseURL, viewport: { width: 1280, height: 900 } });
}

/** Enrols TOTP on /account/security through the UI, as a new handler does after accepting an invitation. */
export async function enrolTotpThroughUi(page: Page, user: TestUser): Promise<void> {
  await expect(page).toHaveURL(/\/account\/security$/);
  await page.getByRole('button', { name: '인증 앱 등록하기' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  const step = totpStep();
  const section = page.getByTestId('totp-section');
  await section.getByLabel('인증 앱에 표시된 6자리 숫자').fill(totpCodeAt(secret, step));
  await section.getByLabel('현재 비밀번호').fill(user.password);
  await section.getByRole('button', { name: '등록 완료' }).click();
  await expect(page.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
  await page.getByRole('button', { name: '보관했습니다' }).click();
  rememberTotp(api.baseURL, user.email, secret, step);
}

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test.beforeAll(async () => {
  test.setTimeout(240_000);
  smtp = await startSmtpMailbox();
  api = await startApi(smtp.port);
  journey.operator.password = demoPassword(api.stdout, journey.operator.email);
  // The operator's second factor, enrolled once through the API (the UI enrolment is step 2's and mfa.spec's).
  const operatorApi = await request.newContext({ baseURL: api.baseURL });
  await ensureManagerTotp(operatorApi, api.baseURL, journey.operator);
  await operatorApi.dispose();
});

test.afterAll(async () => {
  if (api?.child.exitCode === null) {
    const exited = new Promise((resolve) => api.child.once('exit', resolve));
    api.child.kill('SIGTERM');
    await exited;
  }
  if (api) rmSync(api.dataDir, { recursive: true, force: true });
  await smtp?.close();
});

test('1. the operator logs in with TOTP and creates a company in the console', async ({ browser }) => {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto('/login');
  await loginThroughUi(page, journey.operator);
  // An operator's home is the console; the reporter's menu is not theirs.
  await expect(page).toHaveURL(/\/operator$/);
  await expect(page.getByRole('heading', { level: 1, name: '운영 콘솔' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: '주요 메뉴' });
  await expect(nav.getByRole('link', { name: '신고하기' })).toHaveCount(0);
  await expect(page.getByTestId('operator-company').filter({ hasText: '데모 주식회사' })).toBeVisible();
  await expect(page.getByText('발송 대기 메일')).toBeVisible();
  await checkScreen(page, 'operator-console');

  await page.getByLabel('회사 이름').fill(journey.company.name);
  await page.getByLabel('메일 도메인 (선택)').fill(journey.company.domain);
  await page.getByLabel('첫 관리자 이메일').fill(journey.admin.email);
  await page.getByRole('button', { name: '회사 등록하고 초대 보내기' }).click();
  const joinCode = page.getByTestId('join-code');
  await expect(joinCode).toHaveText(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
  journey.company.joinCode = (await joinCode.textContent())!.trim();
  const row = page.getByTestId('operator-company').filter({ hasText: journey.company.name });
  await expect(row).toContainText(journey.company.domain);
  await expect(row).toContainText('이용 중');
  await checkScreen(page, 'operator-console-created');

  // Suspending asks first; cancelling changes nothing.
  await row.getByRole('button', { name: `${journey.company.name} 이용 중지` }).click();
  const dialog = page.getByRole('dialog', { name: `${journey.company.name}의 이용을 중지할까요?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: '취소' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('이용 중');
  await context.close();
});

test('2. the admin accepts the mailed invitation, sets a password and enrols MFA', async ({ browser }) => {
  const mail = await smtp.waitFor(journey.admin.email, (m) => m.text.includes('/join/'));
  expect(mail.subject).toContain(journey.company.name);
  expect(mail.text).toContain('관리자');
  const link = await joinLinkFor(journey.admin.email);

  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: '회사 초대' })).toBeVisible();
  await expect(page.getByText(`${journey.company.name}의 안심신고 관리자로 초대받았습니다.`)).toBeVisible();
  await checkScreen(page, 'join');
  await page.getByLabel('이름').fill(journey.admin.name);
  await page.getByLabel('비밀번호', { exact: false }).first().fill(journey.admin.password);
  await page.getByLabel('비밀번호 확인').fill(journey.admin.password);
  await page.getByRole('button', { name: '계정 만들고 초대 수락하기' }).click();
  // A handler enrols a second factor before any case page opens.
  await enrolTotpThroughUi(page, journey.admin);
  await page.goto('/manager');
  await expect(page.getByRole('heading', { level: 1, name: '회사 신고 관리' })).toBeVisible();
  await expect(page.getByText(journey.company.name)).toBeVisible();

  // The link is spent.
  await page.goto(link);
  await expect(page.getByText('이미 사용했거나')).toBeVisible();
  await context.close();
});
