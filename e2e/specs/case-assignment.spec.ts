import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import {
  createConfirmedUser,
  csrfHeaders,
  demoManager,
  ensureManagerTotp,
  expect,
  loginThroughUi,
  SCREENSHOTS,
  server,
  type TestUser,
  test,
} from '../fixtures';

const suffix = randomBytes(3).toString('hex');

/** The manager assigns the case on its page; the panel reads well at 1280 and 375 px and has no axe violation. */
test('a manager assigns a case to a handler on the case page', async ({ browser, playwright }) => {
  const request = await playwright.request.newContext({ baseURL: server.baseURL });
  const reporterUser: TestUser = {
    email: `e2e-assign-${suffix}@demo.example`,
    password: `Pw-${randomBytes(9).toString('base64url')}`,
    name: `최신고${suffix}`,
  };
  await createConfirmedUser(request, reporterUser);
  const reporterContext = await browser.newContext({ baseURL: server.baseURL });
  const reporterPage = await reporterContext.newPage();
  await reporterPage.goto('/login');
  await loginThroughUi(reporterPage, reporterUser);
  await expect(reporterPage).toHaveURL(/\/dashboard$/);
  const filed = await reporterContext.request.post('/api/v1/report/', {
    headers: { ...(await csrfHeaders(reporterContext.request)), 'Idempotency-Key': randomUUID() },
    data: {
      report_type: 'brief',
      reporter_type: 'victim',
      reporter_name: reporterUser.name,
      reporter_department: '영업팀',
      perpetrator_name: `박행위${suffix}`,
      relationship: '상급자',
      acts: [{ date: '2026-03-02', location: '회의실', description: '반복적인 폭언', evidences: [] }],
      harms: [{ type: 'mental', description: '불안', evidences: [] }],
      wishes: ['investigation'],
    },
  });
  expect(filed.status(), await filed.text()).toBe(201);
  const caseId = ((await filed.json()) as { id: string }).id;
  await reporterContext.close();

  await ensureManagerTotp(request, server.baseURL, demoManager());
  await request.dispose();
  const context = await browser.newContext({
    baseURL: server.baseURL,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await page.goto('/login');
  await loginThroughUi(page, demoManager());
  await expect(page).toHaveURL(/\/manager$/);
  await page.goto(`/manager/detail/${caseId}`);
  const panel = page.getByTestId('section-assignees');
  await expect(panel).toContainText('담당자 지정');
  await expect(panel).toContainText('아직 지정된 조사 담당자가 없습니다');
  await panel.getByRole('checkbox', { name: /김담당/ }).check();
  await panel.getByTestId('save-assignees').click();
  await expect(panel.getByTestId('assignee-list')).toContainText('김담당');
  await expect(page.getByTestId('section-audit')).toContainText('담당자 지정');
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SCREENSHOTS, 'case-assignment-1280.png'), fullPage: false });
  const violations = await new AxeBuilder({ page }).include('[data-testid="section-assignees"]').analyze();
  expect(violations.violations.map((violation) => violation.id)).toEqual([]);

  await page.setViewportSize({ width: 375, height: 812 });
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SCREENSHOTS, 'case-assignment-375.png'), fullPage: false });
  // Nothing wider than the phone's screen.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await context.close();
});
