import { expect, loginThroughUi, test } from '../fixtures';

test('logout ends the session, clears the expiry and every report draft, and shows a snackbar for 5 s', async ({
  page,
  user,
}) => {
  await page.goto('/login');
  await loginThroughUi(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/report');
  await page.getByTestId('report-type-anonym').click();
  await expect(page).toHaveURL(/\/report\/t$/);
  expect(
    await page.evaluate(() => Object.keys(localStorage).some((k) => k.startsWith('ansim.reportDraft.'))),
  ).toBe(true);

  await page.getByRole('link', { name: '로그아웃' }).click();
  await expect(page).toHaveURL(/\/logout$/);
  // A draft exists, so logging out asks before deleting it.
  await expect(page.getByRole('dialog', { name: '작성 중인 신고 초안이 있습니다' })).toBeVisible();
  // The page's clock is held from here, so the snackbar's 5 s are counted by the test, not by the wall clock.
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1_000);
  await page.getByRole('button', { name: '초안 삭제하고 로그아웃' }).click();
  const snackbar = page.getByTestId('snackbar');
  await expect(snackbar).toHaveText(/로그아웃되었습니다\./);
  await expect(
    page.getByText('로그아웃되었습니다. 이 기기에 임시 저장된 신고 초안도 함께 삭제했습니다.'),
  ).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('loginExpires'))).toBeNull();
  expect(
    await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('ansim.reportDraft.'))),
  ).toEqual([]);

  await expect(snackbar).toBeVisible();
  await page.clock.runFor(4_900);
  await expect(snackbar).toBeVisible();
  await page.clock.runFor(1_000);
  await expect(snackbar).toBeHidden();
  await page.clock.resume();

  // The server session is gone too: the session check answers 401.
  const check = await page.request.get('/api/v1/token/');
  expect(check.status()).toBe(401);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard$/);
});
