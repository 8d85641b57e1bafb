import { expect, test } from '../fixtures';

test('dark mode: primary is #2196F3, light is #1867C0, and the choice persists', async ({ page }) => {
  await page.goto('/login');
  const submit = page.getByRole('button', { name: '로그인', exact: true });
  await expect(submit).toHaveCSS('background-color', 'rgb(24, 103, 192)');
  const toggle = page.getByTestId('dark-mode-toggle');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(submit).toHaveCSS('background-color', 'rgb(33, 150, 243)');
  await page.reload();
  await expect(page.getByRole('button', { name: '로그인', exact: true })).toHaveCSS(
    'background-color',
    'rgb(33, 150, 243)',
  );
});

test('usable at 375 px: the drawer holds the navigation', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: '메뉴 열기' }).click();
  await page.getByRole('link', { name: '신고하기' }).click();
  await expect(page).toHaveURL(/\/report$/);
});
