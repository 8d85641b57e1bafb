import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, type Page, request } from '@playwright/test';
import {
  apiCaptcha,
  csrfHeaders,
  ensureManagerTotp,
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
  trackRequests,
} from '../fixtures';
import { type SmtpMailbox, startSmtpMailbox } from '../smtp-mailbox';
import { demoPassword, type SpawnedApi, startApi, stopApi } from '../spawned-api';

/**
 * R-CO end to end, as one story on one API server started for this spec (a fresh data directory, so its
 * demo operator is unused), every mail read from a real SMTP server:
 *   1. the operator (TOTP) creates a company in the console;
 *   2. its admin accepts the mailed invitation, sets a password on /join/…, enrols MFA;
 *   3. that admin invites a manager from the settings page;
 *   4. the manager accepts, enrols MFA and sees the case list, and is no admin;
 *   5. the admin rotates the join code: the old code stops working, the new one works;
 *   6. the operator suspends the company (its admin is logged out and refused) and resumes it; both show in
 *      the operator's log and in the company's own.
 * The steps run in order and hand on what they made through `journey`.
 */

const suffix = randomBytes(3).toString('hex');
const domain = `hanbit-${suffix}.example`;
const password = () => `Pw-${randomBytes(9).toString('base64url')}`;

const journey = {
  operator: { email: 'operator@ansim.example', password: '', name: '안심운영' } as TestUser,
  company: { name: `한빛물산${suffix}`, domain, joinCode: '' },
  admin: { email: `hr-${suffix}@${domain}`, password: password(), name: '정관리' } as TestUser,
  manager: { email: `case-${suffix}@${domain}`, password: password(), name: `한담당${suffix}` } as TestUser,
};

let smtp: SmtpMailbox;
let api: SpawnedApi;
/** The operator's console and the admin's browser stay open from the step that logged them in. */
let operatorContext: BrowserContext;
let adminContext: BrowserContext;

const VIEWPORTS = [
  { label: '1280', width: 1280, height: 900 },
  { label: '375', width: 375, height: 812 },
];

/** axe with no violations, nothing sticking out sideways, and a full-page screenshot at both widths. */
async function checkScreen(page: Page, name: string) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await expect(page.locator('h1')).toHaveCount(1);
    await pageAtRest(page);
    const results = await new AxeBuilder({ page }).analyze();
    const summary = results.violations.map((violation) => ({
      id: violation.id,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
    expect(summary, `${name} at ${viewport.label}px`).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} overflows at ${viewport.label}px`).toBeLessThanOrEqual(0);
    // A full-page capture of a scrolled page would paint the sticky header midway down.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${viewport.label}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const newContext = (browser: Browser): Promise<BrowserContext> =>
  browser.newContext({ baseURL: api.baseURL, viewport: { width: 1280, height: 900 } });

/** The `/join/{token}` link of the newest company invitation mailed to `email`. */
async function joinLinkFor(email: string): Promise<string> {
  const mail = await smtp.waitFor(email, (received) => /\/join\/[A-Za-z0-9_-]+/.test(received.text));
  const match = /https?:\/\/[^\s"'<>]+\/join\/[A-Za-z0-9_-]+/.exec(mail.text);
  if (!match) throw new Error(`No /join link in "${mail.subject}"`);
  return match[0];
}

/** Accepts the open company invitation as someone without an account: a name and a password on /join. */
async function acceptInvitation(page: Page, user: TestUser) {
  await page.getByLabel('이름').fill(user.name);
  // The password field comes before its confirmation, whose label also contains "비밀번호".
  await page.getByLabel('비밀번호').first().fill(user.password);
  await page.getByLabel('비밀번호 확인').fill(user.password);
  await page.getByRole('button', { name: '계정 만들고 초대 수락하기' }).click();
}

/**
 * Enrols TOTP on /account/security through the UI, as a new handler must before any case page opens. The step
 * the code was made for is remembered: the server takes each code once, and later logins use a later step.
 */
async function enrolTotpThroughUi(page: Page, user: TestUser): Promise<void> {
  await expect(page).toHaveURL(/\/account\/security$/);
  await page.getByRole('button', { name: '인증 앱 등록하기' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  const step = totpStep();
  const section = page.getByTestId('totp-section');
  await section.getByLabel('인증 앱에 표시된 6자리 숫자').fill(totpCodeAt(secret, step));
  await section.getByLabel('현재 비밀번호').fill(user.password);
  await section.getByRole('button', { name: '등록 완료' }).click();
  await expect(page.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
  rememberTotp(api.baseURL, user.email, secret, step);
  await page.getByRole('button', { name: '보관했습니다' }).click();
}

/** The login form up to its answer: for a refused login, which never reaches the second step. */
async function submitLogin(page: Page, user: TestUser) {
  await page.goto('/login');
  await page.getByLabel('이메일').fill(user.email);
  await page.getByLabel('비밀번호').fill(user.password);
  await solveCaptcha(page);
  await page.getByRole('button', { name: '로그인', exact: true }).click();
}

/** Opens a settings tab, waits until what it loads has arrived, and checks it at both widths. */
async function checkTab(page: Page, requests: ReturnType<typeof trackRequests>, tab: string, name: string) {
  await page.getByRole('tab', { name: tab }).click();
  await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
  await requests.settled();
  await checkScreen(page, name);
}

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test.beforeAll(async () => {
  test.setTimeout(240_000);
  smtp = await startSmtpMailbox();
  api = await startApi({
    dataDirPrefix: 'ansim-e2e-company-admin-',
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '100000',
      LOGIN_LIMIT_PER_IP_PER_MINUTE: '1000',
      RECEIPT_LIMIT_PER_IP_PER_HOUR: '100000',
      INTAKE_LOOKUPS_PER_IP_PER_HOUR: '100000',
    },
  });
  journey.operator.password = demoPassword(api.output, journey.operator.email);
  // The operator's second factor, enrolled once through the API (the UI enrolment is the handlers' below).
  const operatorApi = await request.newContext({ baseURL: api.baseURL });
  await ensureManagerTotp(operatorApi, api.baseURL, journey.operator);
  await operatorApi.dispose();
});

test.afterAll(async () => {
  await operatorContext?.close();
  await adminContext?.close();
  if (api) await stopApi(api);
  await smtp?.close();
});

test('1. the operator logs in with TOTP and creates a company in the console', async ({ browser }) => {
  operatorContext = await newContext(browser);
  const page = await operatorContext.newPage();
  await page.goto('/login');
  await loginThroughUi(page, journey.operator);
  // An operator's home is the console; the reporter's menu is not theirs.
  await expect(page).toHaveURL(/\/operator$/);
  await expect(page.getByRole('heading', { level: 1, name: '운영 콘솔' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: '주요 메뉴' });
  await expect(nav.getByRole('link', { name: '신고하기' })).toHaveCount(0);
  await expect(page.getByTestId('operator-company').filter({ hasText: '데모 주식회사' })).toBeVisible();
  await expect(page.getByText('발송 대기 메일')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: '운영 기록' })).toBeVisible();
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
  // The operator's own log has the new company, with who did it and its domain.
  const latest = page.getByTestId('operator-audit-entry').first();
  await expect(latest).toContainText(`${journey.company.name} 등록`);
  await expect(latest).toContainText(journey.operator.name);
  await expect(latest).toContainText(journey.company.domain);
  await checkScreen(page, 'operator-console-created');

  // Suspending asks first; cancelling changes nothing (step 6 suspends for real).
  await row.getByRole('button', { name: `${journey.company.name} 이용 중지` }).click();
  const dialog = page.getByRole('dialog', { name: `${journey.company.name}의 이용을 중지할까요?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: '취소' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('이용 중');
  await expect(page.getByTestId('operator-audit-entry')).toHaveCount(1);
});

test('2. the admin accepts the mailed invitation, sets a password and enrols MFA', async ({ browser }) => {
  const mail = await smtp.waitFor(journey.admin.email, (m) => m.text.includes('/join/'));
  expect(mail.subject).toContain(journey.company.name);
  expect(mail.text).toContain('관리자');
  const link = await joinLinkFor(journey.admin.email);

  adminContext = await newContext(browser);
  const page = await adminContext.newPage();
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: '회사 초대' })).toBeVisible();
  await expect(page.getByText(`${journey.company.name}의 안심신고 관리자로 초대받았습니다.`)).toBeVisible();
  await checkScreen(page, 'join');
  await acceptInvitation(page, journey.admin);
  // A handler enrols a second factor before any case page opens.
  await enrolTotpThroughUi(page, journey.admin);
  await page.goto('/manager');
  await expect(page.getByRole('heading', { level: 1, name: '회사 신고 관리' })).toBeVisible();
  await expect(page.getByText(journey.company.name)).toBeVisible();

  // The link is spent.
  await page.goto(link);
  await expect(page.getByText('이미 사용했거나')).toBeVisible();
});

test('3. that admin opens the settings from the case list and invites a manager', async () => {
  const page = await adminContext.newPage();
  const requests = trackRequests(page);
  await page.goto('/manager');
  await page.getByTestId('settings-link').click();
  await expect(page).toHaveURL(/\/manager\/settings/);
  await expect(page.getByRole('heading', { level: 1, name: '회사 설정' })).toBeVisible();
  await expect(page.getByText(`${journey.company.name}의 담당자`)).toBeVisible();
  await expect(page.getByTestId('people-table')).toContainText(journey.admin.email);
  await checkScreen(page, 'settings-people');

  await page.getByTestId('invite-email').fill(journey.manager.email);
  await page.getByTestId('invite-role').selectOption('manager');
  await page.getByRole('button', { name: '초대 메일 보내기' }).click();
  await expect(page.getByRole('list', { name: '수락을 기다리는 초대' })).toContainText(journey.manager.email);

  // Every other tab at both widths; the join code's is step 5's.
  await checkTab(page, requests, '도메인', 'settings-domains');
  await expect(page.getByRole('tabpanel')).toContainText(journey.company.domain);
  await checkTab(page, requests, '기한·보관', 'settings-deadlines');
  await checkTab(page, requests, '안내 문구', 'settings-notices');
  await checkTab(page, requests, '변경 기록', 'settings-audit');
  await expect(page.getByTestId('audit-table')).toContainText('담당자 초대');
  await page.close();
});

test('4. the manager accepts the mailed invitation, enrols MFA and sees the case list', async ({
  browser,
}) => {
  const mail = await smtp.waitFor(journey.manager.email, (received) => received.text.includes('/join/'));
  expect(mail.subject).toContain(journey.company.name);
  const link = await joinLinkFor(journey.manager.email);
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByText(`${journey.company.name}의 안심신고 담당자로 초대받았습니다.`)).toBeVisible();
  await acceptInvitation(page, journey.manager);
  // A handler must enrol a second factor before any case: the page sends them to the security settings.
  await enrolTotpThroughUi(page, journey.manager);
  await page.goto('/manager');
  await expect(page.getByRole('heading', { name: '사건 목록' })).toBeVisible();
  await expect(page.getByText(journey.company.name)).toBeVisible();
  // A manager is no admin: no settings link, and the settings page says so.
  await expect(page.getByTestId('settings-link')).toHaveCount(0);
  await page.goto('/manager/settings');
  await expect(
    page.getByRole('heading', { level: 1, name: '회사 관리자만 볼 수 있는 페이지입니다' }),
  ).toBeVisible();
  await context.close();
});

test('5. the admin rotates the join code, and the old code stops working', async () => {
  const page = await adminContext.newPage();
  // The manager who accepted is a manager with MFA; on a phone each person is a card, not a table row.
  await page.goto('/manager/settings?tab=people');
  const managerRow = page.getByTestId(`person-${journey.manager.email}`);
  await expect(managerRow.getByLabel(`${journey.manager.name}의 역할`)).toHaveValue('manager');
  await expect(managerRow).toContainText('사용 중');
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByTestId('people-table')).toHaveCount(0);
  const cards = page.getByTestId('people-cards');
  await expect(cards.getByRole('listitem')).toHaveCount(2);
  const adminCard = cards.getByTestId(`person-${journey.admin.email}`);
  await expect(adminCard).toContainText(`${journey.admin.name} (나)`);
  await expect(adminCard).toContainText('사용 중');
  await expect(adminCard).toContainText(/\d{4}\D+\d{1,2}\D+\d{1,2}\D* 가입/);
  await expect(adminCard.getByRole('button', { name: '담당자 해제' })).toBeVisible();
  const managerCard = cards.getByTestId(`person-${journey.manager.email}`);
  await expect(managerCard).not.toContainText('(나)');
  for (const card of [adminCard, managerCard]) {
    const select = card.getByRole('combobox');
    const [cardBox, selectBox] = [await card.boundingBox(), await select.boundingBox()];
    // Full width: the card's width less its padding (2 × 16 px) and border.
    expect(selectBox!.width, 'role select width').toBeGreaterThanOrEqual(cardBox!.width - 36);
    // The address breaks only where it must: at most two lines, never a column of letter groups.
    const lines = await card.getByTestId('person-email').evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(lines, 'lines of the e-mail address').toBeLessThanOrEqual(2);
    // Nothing of the card hides behind a sideways scroll.
    expect(await card.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(
      0,
    );
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.getByTestId('people-table')).toBeVisible();

  await page.getByRole('tab', { name: '가입 코드·접수 링크' }).click();
  const shownCode = page.getByTestId('join-code');
  // The code the operator was shown when the company was created.
  await expect(shownCode).toHaveText(journey.company.joinCode);
  const oldCode = journey.company.joinCode;
  // The on-screen code, by its name; the print-only notice holds a second one, hidden from view and from AT.
  await expect(page.getByRole('img', { name: /익명 신고 접수 링크 QR 코드$/ }).locator('svg')).toBeVisible();
  await checkScreen(page, 'settings-join-code');
  await page.getByRole('button', { name: '새 코드로 바꾸기' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '새 코드로 바꾸기' }).click();
  await expect(shownCode).not.toHaveText(oldCode);
  const newCode = (await shownCode.textContent())!.trim();
  expect(newCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);

  // Registering with the old code creates no account: the address is told the code is unknown.
  const visitor = await request.newContext({ baseURL: api.baseURL });
  const lateEmail = `late-${suffix}@elsewhere.example`;
  const registered = await visitor.post('/api/v1/user/', {
    headers: await csrfHeaders(visitor),
    data: { email: lateEmail, password: password(), name: '늦은 가입', join_code: oldCode },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const refusal = await smtp.waitFor(lateEmail);
  expect(refusal.subject).toContain('가입 코드를 다시 확인해주세요');
  expect(refusal.text).not.toContain('/register/confirm');
  // The new code works: the address gets the link that confirms it into the company.
  const joinerEmail = `joiner-${suffix}@elsewhere.example`;
  const joined = await visitor.post('/api/v1/user/', {
    headers: await csrfHeaders(visitor),
    data: { email: joinerEmail, password: password(), name: '새 가입', join_code: newCode },
  });
  expect(joined.status(), await joined.text()).toBe(201);
  expect((await smtp.waitFor(joinerEmail)).text).toContain('/register/confirm');
  await visitor.dispose();
  await page.close();
});

test('6. the operator suspends the company: its admin is logged out and refused; resuming lets them back', async ({
  browser,
}) => {
  const adminApi = adminContext.request;
  expect((await adminApi.get('/api/v1/user/')).status()).toBe(200);

  const consolePage = await operatorContext.newPage();
  await consolePage.goto('/operator');
  const row = consolePage.getByTestId('operator-company').filter({ hasText: journey.company.name });
  await row.getByRole('button', { name: `${journey.company.name} 이용 중지` }).click();
  const suspend = consolePage.getByRole('dialog', { name: `${journey.company.name}의 이용을 중지할까요?` });
  await suspend.getByRole('button', { name: '이용 중지하기' }).click();
  await expect(suspend).toBeHidden();
  // Suspended: the card offers resuming instead.
  await expect(row.getByRole('button', { name: `${journey.company.name} 이용 재개` })).toBeVisible();
  await expect(row.getByRole('button', { name: `${journey.company.name} 이용 중지` })).toHaveCount(0);
  await expect(consolePage.getByTestId('operator-audit-entry').first()).toContainText(
    `${journey.company.name} 이용 중지`,
  );

  // The admin's open session ended with the suspension.
  expect((await adminApi.get('/api/v1/user/')).status()).toBe(401);
  // Logging in again is refused with the company's suspension, in the form and on the wire.
  const context = await newContext(browser);
  const page = await context.newPage();
  const login = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname.replace(/\/$/, '') === '/api/v1/token' &&
      response.request().method() === 'POST',
  );
  await submitLogin(page, journey.admin);
  const refused = await login;
  expect(refused.status()).toBe(403);
  expect((await refused.json()).code).toBe('COMPANY_SUSPENDED');
  await expect(page.getByRole('alert').filter({ hasText: '이용이 일시 중지되었습니다' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  const probe = await request.newContext({ baseURL: api.baseURL });
  const byApi = await probe.post('/api/v1/token/', {
    headers: await csrfHeaders(probe),
    data: { email: journey.admin.email, password: journey.admin.password, captcha: await apiCaptcha(probe) },
  });
  expect(byApi.status()).toBe(403);
  expect((await byApi.json()).code).toBe('COMPANY_SUSPENDED');

  // Resumed, the company's admin logs in again (with a fresh TOTP step).
  await row.getByRole('button', { name: `${journey.company.name} 이용 재개` }).click();
  const resume = consolePage.getByRole('dialog', { name: `${journey.company.name}의 이용을 재개할까요?` });
  await resume.getByRole('button', { name: '이용 재개하기' }).click();
  await expect(resume).toBeHidden();
  await expect(row.getByRole('button', { name: `${journey.company.name} 이용 중지` })).toBeVisible();
  await expect(row.getByRole('button', { name: `${journey.company.name} 이용 재개` })).toHaveCount(0);
  const log = consolePage.getByTestId('operator-audit-entry');
  await expect(log).toHaveCount(3);
  await expect(log.nth(0)).toContainText(`${journey.company.name} 이용 재개`);
  await expect(log.nth(1)).toContainText(`${journey.company.name} 이용 중지`);
  await expect(log.nth(2)).toContainText(`${journey.company.name} 등록`);
  await checkScreen(consolePage, 'operator-console-log');

  await probe.dispose();
  await page.goto('/login');
  await loginThroughUi(page, journey.admin);
  await expect(page).not.toHaveURL(/\/login/);

  // The company's own log says when, and by whom, nobody could log in.
  await page.goto('/manager/settings?tab=audit');
  const audit = page.getByTestId('audit-table');
  await expect(audit.getByRole('row').nth(1)).toContainText('이용 재개');
  await expect(audit.getByRole('row').nth(2)).toContainText('이용 중지');
  await expect(audit.getByRole('row').nth(2)).toContainText(`${journey.operator.name} (안심신고 운영팀)`);
  await expect(audit.getByRole('row').nth(2)).toContainText('이용을 중지했습니다');
  await context.close();
});
