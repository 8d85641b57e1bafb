import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import {
  createCompanyMember,
  demoManager,
  ensureManagerTotp,
  expect,
  hasTotp,
  loginThroughUi,
  pageAtRest,
  SCREENSHOTS,
  server,
  type TestUser,
  test,
} from '../fixtures';
import { waitForMailLink } from '../mailbox';

/**
 * R-WIZ-6, R-WEB-14: step addresses in the wizard and the statement form, the home page after login, one clock on
 * every page, and the landing page with its policies. Every browser here runs on UTC, so a page that used
 * the device's clock instead of Korea's would show other figures than the others.
 */

test.describe.configure({ mode: 'serial' });

async function csrf(request: APIRequestContext): Promise<Record<string, string>> {
  await request.get('/api/csrf');
  const { cookies } = await request.storageState();
  return { 'X-CSRFToken': cookies.find((cookie) => cookie.name === 'csrftoken')!.value };
}

const utcContext = (browser: Browser, width = 1280) =>
  browser.newContext({
    baseURL: server.baseURL,
    timezoneId: 'UTC',
    viewport: { width, height: width === 375 ? 812 : 900 },
  });

async function logIn(browser: Browser, user: TestUser, home: RegExp) {
  const context = await utcContext(browser);
  const page = await context.newPage();
  await page.goto('/login');
  await loginThroughUi(page, user);
  await expect(page).toHaveURL(home);
  return { context, page };
}

/** What lib/datetime.ts shows for `iso` in Korean on a device whose clock is not Korea's. */
const seoulDateTime = (iso: string) =>
  `${new Intl.DateTimeFormat('ko-KR', {
    timeZone: 'Asia/Seoul',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso))} (KST)`;

async function checkScreen(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await pageAtRest(page);
    // A dialog fading in is half transparent: axe would measure the contrast of a frame in between.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    const results = await new AxeBuilder({ page }).analyze();
    const summary = results.violations.map((violation) => ({
      id: violation.id,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
    expect(summary, `${name} at ${width}px`).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SCREENSHOTS, `polish-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const stepTitle = (page: Page) => page.getByRole('heading', { level: 2 }).first();

let member: { context: BrowserContext; page: Page };
let manager: { context: BrowserContext; page: Page };
let memberUser: TestUser;
let reportId: string;
const ACCUSED_EMAIL = `accused-${randomUUID().slice(0, 6)}@demo.example`;

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: server.baseURL });
  memberUser = await createCompanyMember(request);
  // A handler logs in with a second factor; this spec must not depend on an earlier one having enrolled it.
  // Enrolled already, nothing is done here: each login spends a TOTP step, and the test below needs two.
  if (!hasTotp(server.baseURL, demoManager().email))
    await ensureManagerTotp(request, server.baseURL, demoManager());
  await request.dispose();
});

test.afterAll(async () => {
  await member?.context.close();
  await manager?.context.close();
});

test('after login a member lands on the dashboard and a manager on the case list', async ({ browser }) => {
  // The manager logs in twice, each with a TOTP step not used before: the second may wait for the clock.
  test.setTimeout(120_000);
  member = await logIn(browser, memberUser, /\/dashboard$/);
  manager = await logIn(browser, demoManager(), /\/manager$/);
  await expect(manager.page.getByRole('heading', { level: 1 })).toBeVisible();

  // A page that was asked for still wins over the role's home.
  const asked = await utcContext(browser);
  const page = await asked.newPage();
  await page.goto('/login?redirect=%2Fdashboard');
  await loginThroughUi(page, demoManager());
  await expect(page).toHaveURL(/\/dashboard$/);
  await asked.close();
});

test('each wizard step has its own address: Back, Forward, refresh, guard and 이어서 작성하기', async () => {
  const { page } = member;
  await page.evaluate(() => localStorage.setItem('ansim.reportDraft.report_type', JSON.stringify('brief')));
  await page.goto('/report/t/a');
  await expect(page).toHaveURL(/\/report\/t\/a\?step=1$/);
  await expect(stepTitle(page)).toHaveText('신고인·행위자 정보 및 관계');

  // An address past a step with missing answers lands on that step.
  await page.goto('/report/t/a?step=4');
  await expect(page).toHaveURL(/\/report\/t\/a\?step=1$/);

  await page.getByRole('radio', { name: '피해자 본인' }).check();
  await page.locator('#draft-reporter_name').fill('홍길동');
  await page.locator('#draft-perpetrator_name').fill('김부장');
  await page.getByTestId('wizard-next').click();
  await expect(page).toHaveURL(/\/report\/t\/a\?step=2$/);
  await expect(stepTitle(page)).toHaveText('괴롭힘 행위 및 증거');

  await page.goBack();
  await expect(page).toHaveURL(/\/report\/t\/a\?step=1$/);
  await expect(stepTitle(page)).toHaveText('신고인·행위자 정보 및 관계');
  await expect(page.locator('#draft-reporter_name')).toHaveValue('홍길동');
  await page.goForward();
  await expect(page).toHaveURL(/\/report\/t\/a\?step=2$/);
  await expect(stepTitle(page)).toHaveText('괴롭힘 행위 및 증거');

  await page.reload();
  await expect(page).toHaveURL(/\/report\/t\/a\?step=2$/);
  await expect(stepTitle(page)).toHaveText('괴롭힘 행위 및 증거');

  // The dashboard's 이어서 작성하기 opens the step where the reporter stopped.
  await page.goto('/dashboard');
  await page.getByRole('link', { name: '이어서 작성하기' }).click();
  await expect(page).toHaveURL(/\/report\/t\/a\?step=2$/);
  await expect(stepTitle(page)).toHaveText('괴롭힘 행위 및 증거');

  // Logging out with a draft asks first; going back keeps the draft and the step.
  await page.getByRole('link', { name: '로그아웃' }).first().click();
  const dialog = page.getByRole('dialog', { name: '작성 중인 신고 초안이 있습니다' });
  await expect(dialog).toContainText('약식 신고 초안이 삭제되며');
  await checkScreen(page, 'logout-draft-dialog');
  await dialog.getByRole('button', { name: '돌아가기' }).click();
  await expect(page).toHaveURL(/\/report\/t\/a\?step=2$/);
  expect(await page.evaluate(() => localStorage.getItem('ansim.reportDraft.reporter_name'))).toBe('"홍길동"');
  expect(await page.evaluate(() => localStorage.getItem('loginExpires'))).not.toBeNull();
});

test('the statement form: its own header, and Back, Forward and refresh between steps', async ({
  browser,
}) => {
  const response = await member.context.request.post('/api/v1/report/', {
    headers: { ...(await csrf(member.context.request)), 'Idempotency-Key': randomUUID() },
    data: {
      report_type: 'formal',
      reporter_type: 'victim',
      reporter_name: memberUser.name,
      perpetrator_name: '박행위',
      perpetrator_email: ACCUSED_EMAIL,
      relationship: '상급자',
      acts: [
        { date: '2026-03-02', location: '3층 회의실', description: '회의 중 반복적인 폭언', evidences: [] },
      ],
      harms: [{ type: 'mental', description: '불면과 불안', evidences: [] }],
      wishes: ['investigation'],
      protection_requests: ['separation'],
      witnesses: [],
      extra_info: '',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  reportId = ((await response.json()) as { id: string }).id;
  const invited = await manager.context.request.post(`/api/v1/manager/report/${reportId}/invitations`, {
    headers: await csrf(manager.context.request),
    data: { invitations: [{ kind: 'defendant', email: ACCUSED_EMAIL }] },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const link = await waitForMailLink(server.dataDir, ACCUSED_EMAIL, '/defendant');

  const context = await utcContext(browser);
  const page = await context.newPage();
  await page.goto(new URL(link).pathname + new URL(link).search);
  await expect(page).toHaveURL(/\/defendant$/);
  // The accused person is not a member: no reporter menu, no menu button.
  const header = page.locator('header');
  await expect(header.getByRole('link', { name: '신고하기' })).toHaveCount(0);
  await expect(header.getByRole('link', { name: '내 신고' })).toHaveCount(0);
  await expect(header.getByRole('button', { name: '메뉴 열기' })).toHaveCount(0);

  await page.getByRole('checkbox', { name: /비밀유지 의무를 확인했으며/ }).check();
  await page.getByRole('button', { name: '확인하고 진술서 작성하기' }).click();
  await expect(page).toHaveURL(/\/defendant\/a\?step=1$/);
  await expect(page.getByTestId('statement-position')).toHaveText('3단계 중 1단계 · 인적 사항');
  await page.getByLabel('직위').fill('팀장');
  await page.getByTestId('statement-next').click();
  await expect(page).toHaveURL(/\/defendant\/a\?step=2$/);
  await expect(page.getByRole('heading', { level: 2, name: '신고 내용에 대한 진술' })).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(/\/defendant\/a\?step=1$/);
  await expect(page.getByRole('heading', { level: 2, name: '인적 사항' })).toBeVisible();
  await expect(page.getByLabel('직위')).toHaveValue('팀장');
  await page.goForward();
  await expect(page).toHaveURL(/\/defendant\/a\?step=2$/);
  await page.reload();
  await expect(page).toHaveURL(/\/defendant\/a\?step=2$/);
  await expect(page.getByRole('heading', { level: 2, name: '신고 내용에 대한 진술' })).toBeVisible();
  await expect(page.locator('header').getByRole('link', { name: '신고하기' })).toHaveCount(0);
  await checkScreen(page, 'statement-step2');

  // One clock: the acknowledgement time on the invitee's page, as Korea reads it, labelled (KST).
  const managerCase = await manager.context.request.get(`/api/v1/manager/report/${reportId}`);
  const view = (await managerCase.json()) as {
    created_at: string;
    invitations: { acknowledged_at: string | null }[];
  };
  const acknowledged = seoulDateTime(view.invitations[0]!.acknowledged_at!);
  await page.goto('/defendant');
  await expect(page.getByTestId('acknowledged-at')).toContainText(acknowledged);
  await context.close();

  // The same two timestamps read the same on the manager's and the reporter's pages.
  const submitted = seoulDateTime(view.created_at);
  await manager.page.goto(`/manager/detail/${reportId}`);
  await expect(manager.page.getByText(submitted, { exact: true }).first()).toBeVisible();
  await expect(manager.page.getByTestId('section-invitations')).toContainText(acknowledged);
  await member.page.goto(`/report-detail/${reportId}/`);
  await expect(member.page.getByTestId('report-submitted-at')).toContainText(submitted);
});

test('the dashboard marks a report the company changed since it was last opened', async () => {
  const { page } = member;
  await page.goto('/dashboard');
  const row = page
    .getByTestId('report-row')
    .filter({ has: page.getByText('정식 신고') })
    .first();
  await expect(row).toBeVisible();
  await expect(row.getByTestId('report-unread')).toHaveCount(0);

  const changed = await manager.context.request.patch(`/api/v1/manager/report/${reportId}`, {
    headers: await csrf(manager.context.request),
    data: { status: 'investigating', note_for_reporter: '조사를 시작했습니다.' },
  });
  expect(changed.status(), await changed.text()).toBe(200);
  await page.reload();
  await expect(row.getByTestId('report-unread')).toHaveText('새 소식');

  await row.click();
  // The row itself carries a status chip too: only the report's own page, shown, counts as opened.
  await expect(page).toHaveURL(new RegExp(`/report-detail/${reportId}/?$`));
  await expect(page.getByTestId('report-status')).toHaveText('조사 중');
  await page.goto('/dashboard');
  await expect(row).toBeVisible();
  await expect(row.getByTestId('report-unread')).toHaveCount(0);
});

test('a session ended on the server opens a login dialog that comes back to the same step with the draft', async () => {
  const { page, context } = member;
  await page.evaluate(() => localStorage.setItem('ansim.reportDraft.report_type', JSON.stringify('brief')));
  await page.goto('/report/t/a?step=2');
  await expect(stepTitle(page)).toHaveText('괴롭힘 행위 및 증거');
  await page.getByRole('button', { name: '괴롭힘 행위 추가' }).click();
  await page.locator('#draft-acts-0-date').fill('지난주 월요일');

  // The server forgets the session (as after the idle limit); this tab still thinks it is signed in.
  const ended = await context.request.delete('/api/v1/token/', { headers: await csrf(context.request) });
  expect(ended.status()).toBe(204);
  await page.getByTestId('evidence-input-acts-0').setInputFiles({
    name: '캡처.png',
    mimeType: 'image/png',
    buffer: Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    ),
  });
  const dialog = page.getByRole('dialog', { name: '로그인 시간이 지났습니다' });
  await expect(dialog).toContainText('작성 중인 신고 초안은 이 기기에 그대로 남아 있습니다.');
  await checkScreen(page, 'session-expired-dialog');
  await dialog.getByRole('button', { name: '다시 로그인' }).click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Freport%2Ft%2Fa%3Fstep%3D2$/);
  await loginThroughUi(page, memberUser);
  await expect(page).toHaveURL(/\/report\/t\/a\?step=2$/);
  await expect(page.locator('#draft-acts-0-date')).toHaveValue('지난주 월요일');
});

test('the phone menu closes with its own button', async ({ browser }) => {
  const context = await utcContext(browser, 375);
  const page = await context.newPage();
  await page.goto('/report');
  await page.getByRole('button', { name: '메뉴 열기' }).click();
  const close = page.getByRole('button', { name: '메뉴 닫기' });
  await expect(close).toBeVisible();
  await close.click();
  await expect(close).toBeHidden();
  await context.close();
});

test('the landing page says how it works, what the company sees, who runs it, FAQ and outside help', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByTestId('landing-how').getByRole('listitem')).toHaveCount(4);
  const sees = page.getByTestId('landing-sees');
  for (const type of ['익명 신고', '약식 신고', '정식 신고'])
    await expect(sees.getByRole('heading', { level: 3, name: type })).toBeVisible();
  expect(await page.getByTestId('landing-faq').locator('details').count()).toBeGreaterThanOrEqual(8);
  const help = page.getByTestId('landing-help');
  for (const phone of ['1350', '1331', '132', '1588-0075'])
    await expect(help.getByRole('link', { name: new RegExp(`${phone}$`) })).toBeVisible();
  // The operator comes from the server's configuration (defaults here).
  await expect(page.getByTestId('operator-name')).toHaveText('안심신고 운영팀');
  await expect(page.getByTestId('operator-contact')).toHaveText('privacy@ansim.local');
  await checkScreen(page, 'landing');

  await page.getByTestId('landing-operator').getByRole('link', { name: '개인정보 처리방침' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('개인정보 처리방침');
  for (const heading of [
    '처리하는 개인정보 항목',
    '처리 목적',
    '보유 기간',
    '제3자 제공',
    '처리의 위탁',
    '행사 방법',
    '파기 절차',
    '안전성 확보 조치',
    '개인정보 보호책임자',
  ])
    await expect(page.getByRole('heading', { level: 2, name: new RegExp(heading) })).toBeVisible();
  await expect(page.getByTestId('policy-operator-contact')).toHaveText('privacy@ansim.local');
  await checkScreen(page, 'privacy');

  await page.getByRole('link', { name: '이용약관' }).first().click();
  await expect(page).toHaveURL(/\/terms$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('이용약관');
  await expect(page.getByTestId('policy-operator-name')).toHaveText('안심신고 운영팀');
  await checkScreen(page, 'terms');
});

test('forgot-password and resend-confirmation are two pages with one e-mail field each', async ({ page }) => {
  await page.goto('/forgot-password');
  await expect(page.getByRole('textbox', { name: /이메일/ })).toHaveCount(1);
  await checkScreen(page, 'forgot-password');
  await page.getByRole('link', { name: '인증 메일을 받지 못하셨나요?' }).click();
  await expect(page).toHaveURL(/\/register\/resend$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('인증 메일 다시 받기');
  await expect(page.getByRole('textbox', { name: /이메일/ })).toHaveCount(1);
  await checkScreen(page, 'register-resend');
});

test('the register form says "필수 입력 항목입니다." alike and puts focus on the first field to fix', async ({
  page,
}) => {
  await page.goto('/register');
  await page.getByRole('button', { name: '가입하기' }).click();
  await expect(page.getByText('필수 입력 항목입니다.')).toHaveCount(4);
  await expect(page.getByRole('textbox', { name: /^이름/ })).toBeFocused();
});
