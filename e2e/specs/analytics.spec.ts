import { expect, loginThroughUi, test, trackRequests } from '../fixtures';

test('with no analytics key, no request leaves for any host but the server', async ({
  page,
  user,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (new URL(url).origin !== origin) foreign.push(url);
  });
  // Every request the page started has ended, so any it would send elsewhere has been seen.
  const { settled } = trackRequests(page);
  for (const path of ['/', '/report', '/register', '/forgot-password', '/reference', '/defendant']) {
    await page.goto(path);
    await expect(page.locator('h1').first()).toBeVisible();
    await settled();
  }
  await page.goto('/login');
  await loginThroughUi(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.locator('h1').first()).toBeVisible();
  await settled();
  const posthogLoaded = await page.evaluate(() => 'posthog' in window || document.cookie.includes('ph_'));
  expect(posthogLoaded).toBe(false);
  expect(foreign).toEqual([]);
});
