import { expect, loginThroughUi, test } from '../fixtures';

test('/dashboard logged out → /login?redirect=%2Fdashboard → back after login', async ({ page, user }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard$/);
  await loginThroughUi(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: '내 신고' })).toBeVisible();
});

test('the redirect keeps query and hash, and refuses other origins', async ({ page, user }) => {
  await page.goto('/report-detail/42?tab=history#note');
  await expect(page).toHaveURL(/\/login\?redirect=%2Freport-detail%2F42%3Ftab%3Dhistory%23note$/);
  await loginThroughUi(page, user);
  await expect(page).toHaveURL(/\/report-detail\/42\?tab=history#note$/);

  await page.goto('/login?redirect=%2F%2Fevil.example%2Fphish');
  await loginThroughUi(page, user);
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/dashboard$/);
});

test('/report/t with no report type → /report; choosing a type opens the guide', async ({ page, user }) => {
  await page.goto('/login');
  await loginThroughUi(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/report/t');
  await expect(page).toHaveURL(/\/report$/);
  await page.goto('/report/t/a');
  await expect(page).toHaveURL(/\/report$/);
  await page.getByTestId('report-type-formal').click();
  await expect(page).toHaveURL(/\/report\/t$/);
  await expect(page.getByRole('heading', { level: 1, name: '정식 신고 안내' })).toBeVisible();
  // The guide's ordered list holds the steps; a second list says what to prepare.
  await expect(page.locator('main ol > li')).toHaveCount(5);
  expect(await page.evaluate(() => localStorage.getItem('ansim.reportDraft.report_type'))).toBe('"formal"');
});
