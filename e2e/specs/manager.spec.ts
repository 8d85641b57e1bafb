import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import {
  createConfirmedUser,
  ensureManagerTotp,
  expect,
  loginThroughUi,
  pageAtRest,
  SCREENSHOTS,
  server,
  type TestUser,
  test,
} from '../fixtures';
import { readServerState } from '../server-state';

/** The demo manager's one-time password, printed once by the server's first start (global setup keeps it). */
function demoManager(): TestUser {
  const log = readFileSync(readServerState().logFile, 'utf8');
  const match = /manager@demo\.example\s+비밀번호 password: (\S+)/.exec(log);
  if (!match) throw new Error('The server log has no demo manager account (was the data directory fresh?)');
  return { email: 'manager@demo.example', password: match[1]!, name: '김담당' };
}

async function csrf(request: APIRequestContext): Promise<Record<string, string>> {
  await request.get('/api/csrf');
  const { cookies } = await request.storageState();
  return { 'X-CSRFToken': cookies.find((cookie) => cookie.name === 'csrftoken')!.value };
}

async function loggedInContext(browser: Browser, user: TestUser, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ baseURL: server.baseURL, viewport, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto('/login');
  await loginThroughUi(page, user);
  // After login a manager lands on the case list, a member on the dashboard.
  await expect(page).toHaveURL(user.email.startsWith('manager@') ? /\/manager$/ : /\/dashboard$/);
  return { context, page };
}

async function fileReport(request: APIRequestContext, form: Record<string, unknown>): Promise<string> {
  const headers: Record<string, string> = { ...(await csrf(request)), 'Idempotency-Key': randomUUID() };
  // An anonymous report is filed through an intake token, never the account (docs/decisions/0005).
  if (form.report_type === 'anonym') {
    const intake = await request.post('/api/v1/intake/', { headers, data: {} });
    expect(intake.status(), await intake.text()).toBe(201);
    headers['X-Intake-Token'] = ((await intake.json()) as { token: string }).token;
  }
  const response = await request.post('/api/v1/report/', { headers, data: form });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((violation) => ({
    id: violation.id,
    nodes: violation.nodes.map((node) => node.target.join(' ')),
  }));
}

const suffix = randomBytes(3).toString('hex');
const ACCUSED = `박행위${suffix}`;
const reporterUser: TestUser = {
  email: `e2e-reporter-${suffix}@demo.example`,
  password: `Pw-${randomBytes(9).toString('base64url')}`,
  name: `최신고${suffix}`,
};

let manager: { context: BrowserContext; page: Page };
let reporter: { context: BrowserContext; page: Page };
let formalId: string;
let anonymId: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser, playwright }) => {
  const request = await playwright.request.newContext({ baseURL: server.baseURL });
  // An address at demo.example places the reporter in 데모 주식회사, the demo manager's company.
  await createConfirmedUser(request, reporterUser);
  await request.dispose();
  reporter = await loggedInContext(browser, reporterUser);
  formalId = await fileReport(reporter.context.request, {
    report_type: 'formal',
    reporter_type: 'victim',
    reporter_name: reporterUser.name,
    reporter_department: '영업팀',
    perpetrator_name: ACCUSED,
    perpetrator_email: `accused-${suffix}@demo.example`,
    relationship: '상급자',
    acts: [
      { date: '2026-03-02', location: '3층 회의실', description: '회의 중 반복적인 폭언', evidences: [] },
    ],
    harms: [{ type: 'mental', description: '불면과 불안', evidences: [] }],
    wishes: ['investigation', 'separation'],
    protection_requests: ['separation'],
    witnesses: [
      {
        name: '정목격',
        department: '영업팀',
        position: '대리',
        email: `witness-${suffix}@demo.example`,
        email_sent_at: null,
      },
    ],
    extra_info: '',
  });
  anonymId = await fileReport(reporter.context.request, {
    report_type: 'anonym',
    reporter_type: 'victim',
    perpetrator_name: `${ACCUSED}익명`,
    acts: [{ date: '2026-03-05', location: '사무실', description: '업무 배제', evidences: [] }],
    concerns: [{ concern: '보복이 걱정됩니다', companyRequest: '비밀 유지' }],
  });
  // Managers must have a second factor: the demo manager enrols TOTP on first login, like anyone else.
  const managerRequest = await playwright.request.newContext({ baseURL: server.baseURL });
  await ensureManagerTotp(managerRequest, server.baseURL, demoManager());
  await managerRequest.dispose();
  manager = await loggedInContext(browser, demoManager());
});

test.afterAll(async () => {
  await manager?.context.close();
  await reporter?.context.close();
});

test('the manager sees exactly the company cases, filters them, and an unknown case is not found', async () => {
  const { page } = manager;
  const api = await manager.context.request.get('/api/v1/manager/report/?page_size=100');
  const listed = (await api.json()) as { count: number; results: { id: string; case_number: string }[] };
  const stats = (await (await manager.context.request.get('/api/v1/manager/stats/reports')).json()) as {
    total: number;
  };
  // List and statistics are both scoped to the company on the server; they must agree and hold our cases.
  expect(listed.count).toBe(stats.total);
  expect(listed.results.map((row) => row.id)).toEqual(expect.arrayContaining([formalId, anonymId]));
  const formalNumber = listed.results.find((row) => row.id === formalId)!.case_number;

  await page.goto('/manager');
  await expect(page.getByRole('heading', { level: 1, name: '회사 신고 관리' })).toBeVisible();
  // The statistics have their own page; the console opens on the cases, with a link there.
  await expect(page.getByTestId('stats-charts')).toHaveCount(0);
  await expect(page.getByRole('link', { name: '통계 보기' })).toBeVisible();
  await expect(page.getByText(`${listed.count}건`, { exact: true })).toBeVisible();
  await expect(page.getByTestId('report-row')).toHaveCount(Math.min(listed.count, 20));

  await page.getByRole('searchbox', { name: '검색' }).fill(formalNumber);
  await expect(page).toHaveURL(new RegExp(`q=${formalNumber}`));
  await expect(page.getByTestId('report-row')).toHaveCount(1);
  await expect(page.getByTestId('report-row')).toContainText(ACCUSED);

  await page.getByRole('searchbox', { name: '검색' }).fill(`없는사건${suffix}`);
  await expect(page.getByTestId('reports-empty')).toBeVisible();
  await page.getByRole('button', { name: '필터 초기화' }).click();
  await expect(page.getByTestId('report-row').first()).toBeVisible();

  await page.goto(`/manager/detail/${randomUUID()}`);
  await expect(page.getByRole('heading', { level: 1, name: '사건을 찾을 수 없습니다' })).toBeVisible();
});

test('the manager pages forward and back through the list by its cursor links', async () => {
  const request = reporter.context.request;
  const listed = async () =>
    (await (await manager.context.request.get('/api/v1/manager/report/?page_size=1')).json()) as {
      count: number;
    };
  // More than one page of 20: file what the demo company lacks.
  for (let missing = 21 - (await listed()).count; missing > 0; missing--) {
    await fileReport(request, {
      report_type: 'brief',
      reporter_type: 'victim',
      reporter_name: reporterUser.name,
      perpetrator_name: `${ACCUSED}페이지`,
      acts: [{ date: '2026-03-04', location: '사무실', description: '반복적인 폭언', evidences: [] }],
      harms: [],
      wishes: ['investigation'],
      protection_requests: [],
    });
  }
  const { count } = await listed();
  const { page } = manager;
  await page.goto('/manager');
  await expect(page.getByTestId('reports-count')).toHaveText(`${count}건`);
  const rows = page.getByTestId('report-row');
  await expect(rows).toHaveCount(20);
  const firstPage = await rows.allTextContents();

  await page.getByRole('button', { name: '다음 페이지' }).click();
  // The second page's address carries the cursor the API's next link gave, not only its number.
  await expect(page).toHaveURL(/page=2&after=[\w-]+/);
  await expect(rows).toHaveCount(Math.min(count - 20, 20));
  const secondPage = await rows.allTextContents();
  expect(secondPage.some((row) => firstPage.includes(row))).toBe(false);
  await expect(page.getByText(`${count}건 중 21–${Math.min(count, 40)}`)).toBeVisible();

  await page.getByRole('button', { name: '이전 페이지' }).click();
  await expect(page).toHaveURL(/\/manager$/);
  await expect(rows).toHaveCount(20);
  expect(await rows.allTextContents()).toEqual(firstPage);
});

test('a member sees the managers-only page', async () => {
  await reporter.page.goto('/manager');
  await expect(
    reporter.page.getByRole('heading', { level: 1, name: '관리자만 볼 수 있는 페이지입니다' }),
  ).toBeVisible();
});

test('status change with a note reaches the reporter; the internal note does not', async () => {
  const { page } = manager;
  await page.goto('/manager');
  await page.getByRole('searchbox', { name: '검색' }).fill(ACCUSED);
  // The accused name is sealed and found by its whole name only (decision 0004): `${ACCUSED}익명` is not it.
  await expect(page.getByTestId('report-row')).toHaveCount(1);
  await page.getByTestId('report-row').filter({ hasText: '정식 신고' }).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/manager/detail/${formalId}$`));
  await expect(page.getByTestId('case-content')).toContainText('회의 중 반복적인 폭언');
  await expect(page.getByTestId('case-content')).toContainText(reporterUser.name);

  const noteForReporter = `조사를 시작했습니다 ${suffix}`;
  const internalNote = `내부 검토 메모 ${suffix}`;
  await page.getByRole('button', { name: '처리 상태 변경' }).click();
  const dialog = page.getByRole('dialog', { name: '처리 상태 변경' });
  await dialog.getByLabel(/^조사 중/).check();
  await dialog.getByLabel('신고인에게 전할 안내').fill(noteForReporter);
  await dialog.getByLabel('내부 메모').fill(internalNote);
  await dialog.getByRole('button', { name: '상태 변경' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('case-header').getByTestId('status-chip')).toHaveText('조사 중');
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toContainText('접수 → 조사 중');
  await expect(timeline).toContainText(noteForReporter);
  await expect(timeline).toContainText(internalNote);
  await expect(page.getByTestId('deadline-ack')).toContainText('완료');

  await reporter.page.goto(`/report-detail/${formalId}`);
  await expect(reporter.page.getByText('조사 중').first()).toBeVisible();
  await expect(reporter.page.getByText(noteForReporter)).toBeVisible();
  await expect(reporter.page.getByText(internalNote)).toHaveCount(0);
});

test("a reporter's message appears on the open manager page without a reload", async () => {
  const { page } = manager;
  await page.goto(`/manager/detail/${formalId}`);
  await expect(page.getByTestId('live-state')).toHaveText('실시간 반영 중');
  // Survives only if the page is never reloaded or re-navigated.
  await page.evaluate(() => {
    (window as unknown as { noReload: boolean }).noReload = true;
  });
  const body = `추가로 녹음 파일이 있습니다 ${suffix}`;
  const posted = await reporter.context.request.post(`/api/v1/report/${formalId}/messages`, {
    headers: await csrf(reporter.context.request),
    data: { body },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  await expect(page.getByTestId('messages')).toContainText(body);
  await expect(page.getByTestId('messages')).toContainText(reporterUser.name);
  expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);

  await page.getByLabel('신고인에게 보낼 메시지').fill(`확인했습니다 ${suffix}`);
  await page.getByRole('button', { name: '보내기', exact: true }).click();
  await expect(page.getByTestId('messages')).toContainText(`확인했습니다 ${suffix}`);
});

test('an anonymous case names no one and says the platform never discloses the reporter', async () => {
  const { page } = manager;
  await page.goto(`/manager/detail/${anonymId}`);
  await expect(page.getByTestId('anonymous-reporter')).toContainText('익명 신고인');
  await expect(page.getByTestId('anonymous-reporter')).toContainText('절대 공개하지 않습니다');
  const text = (await page.locator('main').textContent()) ?? '';
  expect(text).not.toContain(reporterUser.name);
  expect(text).not.toContain(reporterUser.email);
});

test('protective measures, invitations, the print view and the PDF record', async () => {
  const { page } = manager;
  await page.goto(`/manager/detail/${formalId}`);
  const measures = page.getByTestId('section-measures');
  await expect(measures.getByTestId('measure')).toHaveCount(1);
  await expect(measures.getByTestId('measure')).toContainText('신고인 요청');
  await measures.getByRole('button', { name: '조치하지 않음' }).click();
  const refuse = page.getByRole('dialog');
  await refuse.getByRole('button', { name: '조치하지 않음' }).click();
  await expect(refuse.getByText('보호조치를 하지 않는 사유를 적어주세요.')).toBeVisible();
  await refuse.getByLabel('사유').fill('같은 층 근무가 불가피하여 재택근무로 대신합니다');
  await refuse.getByRole('button', { name: '조치하지 않음' }).click();
  await expect(refuse).toBeHidden();
  await expect(measures.getByTestId('measure')).toContainText('같은 층 근무가 불가피하여');

  const invitations = page.getByTestId('section-invitations');
  await expect(invitations.getByLabel(/이메일/).first()).toHaveValue(`accused-${suffix}@demo.example`);
  await invitations.getByRole('button', { name: '피신고인에게 진술 요청 보내기' }).click();
  await expect(invitations.getByTestId('invitation')).toHaveCount(1);
  await expect(invitations.getByTestId('invitation-status')).toHaveText('발송됨');
  await invitations.getByRole('button', { name: '진술 요청', exact: true }).click();
  await expect(invitations.getByTestId('invitation')).toHaveCount(2);
  await invitations.getByRole('button', { name: '요청 취소' }).first().click();
  await page.getByRole('dialog').getByRole('button', { name: '요청 취소' }).click();
  await expect(invitations.getByTestId('invitation-status').first()).toHaveText('취소됨');
  await expect(page.getByTestId('section-audit')).toContainText('진술 요청 발송');

  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('header').first()).toBeHidden();
  await expect(page.getByRole('link', { name: '조사보고서 PDF' })).toBeHidden();
  await expect(page.getByTestId('case-content')).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  // The formal record is a PDF made on the server, not a print of the live page.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: '조사보고서 PDF' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^조사보고서-\d{4}-[0-9A-HJKMNP-TV-Z]{6}\.pdf$/);
  const pdf = readFileSync(await download.path());
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
});

test('CSV download keeps Korean intact (BOM, 사건번호 header)', async () => {
  const { page } = manager;
  await page.goto('/manager?status=investigating');
  await expect(page.getByTestId('report-row').first()).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('csv-download').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const bytes = readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.toString('utf8').slice(1);
  expect(text.split('\r\n')[0]).toContain('"사건번호"');
  expect(text).toContain(ACCUSED);
  expect(text).toContain('조사 중');
  // The status filter went along: the anonymous case is still 접수 and must not be exported.
  expect(text).not.toContain(`${ACCUSED}익명`);
});

test('axe: 0 violations and screenshots of /manager, /manager/stats and the case at 1280 and 375 px', async ({
  browser,
}) => {
  // Three pages at two widths, each scanned by axe: more than the default minute on a shared machine.
  test.setTimeout(180_000);
  const state = await manager.context.storageState();
  for (const viewport of [
    { label: '1280', width: 1280, height: 900 },
    { label: '375', width: 375, height: 812 },
  ]) {
    const context = await browser.newContext({
      baseURL: server.baseURL,
      viewport: { width: viewport.width, height: viewport.height },
      storageState: state,
      // The charts skip their entry animation under reduced motion, so the picture and the scan see them settled.
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    await page.goto('/manager');
    // The first page a new context opens loads the app's chunks: more than the default on a loaded machine.
    await expect(page.getByTestId('report-row').first()).toBeVisible({ timeout: 30_000 });
    await pageAtRest(page);
    // The list is the first thing on the page, on a phone too: the first case within the first screen.
    const firstRow = await page.getByTestId('report-row').first().boundingBox();
    expect(firstRow!.y, `first case row at ${viewport.label}px`).toBeLessThan(viewport.height);
    expect(await axeViolations(page), `/manager at ${viewport.label}px`).toEqual([]);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no horizontal scrolling').toBeLessThanOrEqual(viewport.width);
    await page.screenshot({
      path: join(SCREENSHOTS, `manager-console-${viewport.label}.png`),
      fullPage: true,
    });

    await page.goto('/manager/stats');
    await expect(page.getByRole('heading', { level: 1, name: '신고 통계' })).toBeVisible();
    await expect(page.getByTestId('stats-charts').locator('figure')).toHaveCount(7);
    await expect(page.getByTestId('stats-cards')).toBeVisible();
    await pageAtRest(page);
    expect(await axeViolations(page), `/manager/stats at ${viewport.label}px`).toEqual([]);
    const statsWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(statsWidth, 'no horizontal scrolling').toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: join(SCREENSHOTS, `manager-stats-${viewport.label}.png`), fullPage: true });
    if (viewport.label === '1280') {
      // The range is written in the page's language, not the browser's month-input format.
      const from = page.getByLabel('시작 월');
      await expect(from.locator('option:checked')).toHaveText(/^\d{4}년 \d{1,2}월$/);
      const earliest = await from.locator('option').last().getAttribute('value');
      await from.selectOption(earliest!);
      await page.getByRole('button', { name: '적용' }).click();
      await expect(page).toHaveURL(new RegExp(`/manager/stats\\?from=${earliest}&to=`));
    }

    await page.goto(`/manager/detail/${formalId}`);
    await expect(page.getByTestId('case-content')).toBeVisible();
    await expect(page.getByTestId('live-state')).toHaveText('실시간 반영 중');
    await pageAtRest(page);
    expect(await axeViolations(page), `/manager/detail at ${viewport.label}px`).toEqual([]);
    const detailWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(detailWidth, 'no horizontal scrolling').toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: join(SCREENSHOTS, `manager-case-${viewport.label}.png`), fullPage: true });
    await context.close();
  }
});
