import { expect, test } from '../fixtures';

test('landing: hero of 550 px, three value cards, CTA leads to /report', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('안심신고');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
  const hero = page.getByTestId('hero');
  expect((await hero.boundingBox())?.height).toBe(550);
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  for (const title of ['신뢰와 안전', '투명한 절차', '익명성 보장']) {
    await expect(page.getByRole('heading', { level: 3, name: title })).toBeVisible();
  }
  await page.getByRole('link', { name: '신고 절차 시작하기' }).click();
  await expect(page).toHaveURL(/\/report$/);
  await expect(page.getByRole('heading', { level: 1, name: '신고 유형 선택' })).toBeVisible();
  for (const type of ['익명 신고', '약식 신고', '정식 신고']) {
    await expect(page.getByRole('heading', { level: 2, name: type, exact: true })).toBeVisible();
  }
});

test('Korean renders in the Pretendard web font', async ({ page }) => {
  await page.goto('/');
  // fonts.load resolves with the faces that cover these glyphs once they are downloaded; none means the
  // Korean text would fall back to a system font (the machine has none with Hangul). The faces come with the
  // app, after the first paint (decision 0022).
  await expect
    .poll(() =>
      page.evaluate(async () =>
        (await document.fonts.load('700 16px "Pretendard Variable"', '안심신고')).map((face) => face.family),
      ),
    )
    .not.toEqual([]);
  const loaded = await page.evaluate(() =>
    document.fonts.check('700 16px "Pretendard Variable"', '안심신고'),
  );
  expect(loaded).toBe(true);
});

test('English is complete and switchable, and the choice persists', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: /English/ }).click();
  await expect(page.getByRole('link', { name: 'Start the report procedure' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.reload();
  await expect(page.getByRole('link', { name: 'Start the report procedure' })).toBeVisible();
  await page.getByRole('button', { name: /한국어/ }).click();
  await expect(page.getByRole('link', { name: '신고 절차 시작하기' })).toBeVisible();
});
