import { randomBytes, randomUUID } from 'node:crypto';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import {
  createConfirmedUser,
  csrfHeaders,
  demoManager,
  ensureManagerTotp,
  expect,
  loginThroughUi,
  server,
  solveCaptcha,
  type TestUser,
  test,
} from '../fixtures';

/**
 * The reporter's case page follows the case live (R-CASE-13): a manager's status change and message appear
 * on it without a reload, for a reporter signed in with their account and for one holding only a receipt.
 */

const suffix = randomBytes(3).toString('hex');
const reporterUser: TestUser = {
  email: `e2e-live-${suffix}@demo.example`,
  password: `Pw-${randomBytes(9).toString('base64url')}`,
  name: `한실시간${suffix}`,
};

let manager: { context: BrowserContext; page: Page };
let reporter: { context: BrowserContext; page: Page };

test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

async function loggedInContext(browser: Browser, user: TestUser) {
  const context = await browser.newContext({
    baseURL: server.baseURL,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await page.goto('/login');
  await loginThroughUi(page, user);
  await expect(page).toHaveURL(user.email.startsWith('manager@') ? /\/manager$/ : /\/dashboard$/);
  return { context, page };
}

async function fileReport(
  request: APIRequestContext,
  form: Record<string, unknown>,
): Promise<{ id: string; receipt?: string }> {
  const headers: Record<string, string> = {
    ...(await csrfHeaders(request)),
    'Idempotency-Key': randomUUID(),
  };
  // An anonymous report is filed through an intake token, never the account (docs/decisions/0005).
  if (form.report_type === 'anonym') {
    const intake = await request.post('/api/v1/intake/', { headers, data: {} });
    expect(intake.status(), await intake.text()).toBe(201);
    headers['X-Intake-Token'] = ((await intake.json()) as { token: string }).token;
  }
  const response = await request.post('/api/v1/report/', { headers, data: form });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; receipt?: string };
}

/** Marks the page; the mark survives only if the page is never reloaded or re-navigated. */
const markNoReload = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { noReload: boolean }).noReload = true;
  });
const stillNoReload = (page: Page) =>
  page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload);

async function managerActs(id: string, note: string, message: string) {
  const { request } = manager.context;
  const patched = await request.patch(`/api/v1/manager/report/${id}`, {
    headers: await csrfHeaders(request),
    data: { status: 'investigating', note_for_reporter: note },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  const posted = await request.post(`/api/v1/manager/report/${id}/messages`, {
    headers: await csrfHeaders(request),
    data: { body: message },
  });
  expect(posted.status(), await posted.text()).toBe(201);
}

test.beforeAll(async ({ browser, playwright }) => {
  const request = await playwright.request.newContext({ baseURL: server.baseURL });
  // An address at demo.example places the reporter in 데모 주식회사, the demo manager's company.
  await createConfirmedUser(request, reporterUser);
  await request.dispose();
  reporter = await loggedInContext(browser, reporterUser);
  // Managers must have a second factor: the demo manager enrols TOTP on first login, like anyone else.
  const managerRequest = await playwright.request.newContext({ baseURL: server.baseURL });
  await ensureManagerTotp(managerRequest, server.baseURL, demoManager());
  await managerRequest.dispose();
  manager = await loggedInContext(browser, demoManager());
});

test.afterAll(async () => {
  await reporter?.context.close();
  await manager?.context.close();
});

test("a manager's status change and message appear on the reporter's open case page without a reload", async () => {
  const { id } = await fileReport(reporter.context.request, {
    report_type: 'brief',
    reporter_type: 'victim',
    reporter_name: reporterUser.name,
    perpetrator_name: `박실시간${suffix}`,
    acts: [
      { date: '2026-03-02', location: '3층 회의실', description: '회의 중 반복적인 폭언', evidences: [] },
    ],
  });
  const { page } = reporter;
  await page.goto(`/report-detail/${id}`);
  await expect(page.getByTestId('report-status')).toHaveText('접수');
  await markNoReload(page);

  const note = `조사를 시작했습니다 ${suffix}`;
  const message = `다음 주에 면담하겠습니다 ${suffix}`;
  await managerActs(id, note, message);
  await expect(page.getByTestId('report-status')).toHaveText('조사 중');
  await expect(page.getByTestId('report-timeline')).toContainText(note);
  await expect(page.getByTestId('report-messages')).toContainText(message);
  expect(await stillNoReload(page)).toBe(true);
});

test('the same holds for a reporter who follows an anonymous case with its receipt alone', async ({
  browser,
}) => {
  const { id, receipt } = await fileReport(reporter.context.request, {
    report_type: 'anonym',
    reporter_type: 'victim',
    perpetrator_name: `박실시간${suffix}익명`,
    acts: [{ date: '2026-03-05', location: '사무실', description: '업무 배제', evidences: [] }],
    concerns: [{ concern: '보복이 걱정됩니다', companyRequest: '비밀 유지' }],
  });
  // A fresh browser with no account: only the receipt opens the case.
  const context = await browser.newContext({
    baseURL: server.baseURL,
    viewport: { width: 1280, height: 900 },
  });
  try {
    const page = await context.newPage();
    await page.goto('/receipt');
    await page.getByRole('textbox', { name: /접수번호/ }).fill(receipt!);
    await solveCaptcha(page);
    await page.getByTestId('receipt-submit').click();
    await expect(page).toHaveURL(new RegExp(`/report-detail/${id}/?$`));
    await expect(page.getByTestId('report-status')).toHaveText('접수');
    expect((await context.request.get('/api/v1/user/')).status()).toBe(401);
    await markNoReload(page);

    const note = `익명 신고를 조사합니다 ${suffix}`;
    const message = `익명 신고인께 안내드립니다 ${suffix}`;
    await managerActs(id, note, message);
    await expect(page.getByTestId('report-status')).toHaveText('조사 중');
    await expect(page.getByTestId('report-timeline')).toContainText(note);
    await expect(page.getByTestId('report-messages')).toContainText(message);
    expect(await stillNoReload(page)).toBe(true);
  } finally {
    await context.close();
  }
});
