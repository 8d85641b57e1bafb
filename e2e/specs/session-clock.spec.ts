import type { APIRequestContext, Page } from '@playwright/test';
import { csrfHeaders, expect, loginThroughUi, server, test, trackRequests } from '../fixtures';

/**
 * R-WEB-10: a sliding session outlives two hours of work, and two hours away still end it. Both clocks move
 * together without waiting: the page's through Playwright's clock, the server's through the e2e-only
 * `PUT /api/test/clock` (apps/api/src/routes/test-clock.ts, present only under NODE_ENV=test with
 * TEST_CLOCK_ROUTE=true, set by the global setup). The idle limit is the default SESSION_IDLE_SECONDS, 2 h.
 */

const IDLE_LIMIT_SECONDS = 2 * 3600;

let serverOffsetSeconds = 0;

async function setServerClock(request: APIRequestContext, offsetSeconds: number): Promise<void> {
  const answer = await request.put('/api/test/clock', {
    headers: await csrfHeaders(request),
    data: { offset_seconds: offsetSeconds },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  serverOffsetSeconds = offsetSeconds;
}

/** Time passes for the server and the page alike. */
async function letTimePass(page: Page, request: APIRequestContext, minutes: number): Promise<void> {
  await setServerClock(request, serverOffsetSeconds + minutes * 60);
  await page.clock.fastForward(minutes * 60_000);
}

/**
 * The page is done with its start-up: its requests have ended, and the timers it set meanwhile (frozen with the
 * page clock) have run now, while the session is alive, rather than after a jump of hours.
 */
async function settle(page: Page, requests: ReturnType<typeof trackRequests>): Promise<void> {
  await requests.settled();
  await page.clock.runFor(2_000);
  await requests.settled();
}

const isSessionCheck = (url: string, method: string) =>
  method === 'GET' && new URL(url).pathname === '/api/v1/token/';

test.afterEach(async ({ playwright }) => {
  // The server is shared with every other spec: its clock goes back to the wall clock whatever happened.
  const request = await playwright.request.newContext({ baseURL: server.baseURL });
  await setServerClock(request, 0);
  await request.dispose();
});

test('a session outlives 2.5 h of writing, and 2 h away end it with the login dialog at the next key press', async ({
  browser,
  playwright,
  member,
}) => {
  test.setTimeout(120_000);
  const clockRequest = await playwright.request.newContext({ baseURL: server.baseURL });
  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  const requests = trackRequests(page);
  await page.clock.install();
  await page.goto('/login');
  await loginThroughUi(page, member);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.evaluate(() => localStorage.setItem('ansim.reportDraft.report_type', JSON.stringify('brief')));
  const userLoaded = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/user/');
  await page.goto('/report/t/a?step=1');
  const field = page.getByRole('textbox', { name: /^이름/ }).first();
  await field.fill('김안심');
  // Time moves only once the page has made its start-up calls, so the key press below makes the first call.
  await userLoaded;
  await settle(page, requests);

  // Five half-hours of writing with no API call of its own: each key press after a quiet while slides the
  // session through the session check, and the page takes the server's new expiry. The wait is set before
  // time moves: whatever the page does first after the jump, the check it makes is the one looked at.
  for (let round = 1; round <= 5; round += 1) {
    const check = page.waitForResponse((response) =>
      isSessionCheck(response.url(), response.request().method()),
    );
    await letTimePass(page, clockRequest, 30);
    await field.press('End');
    await field.pressSequentially(` ${round}`);
    const answer = await check;
    expect(answer.status(), `after ${round * 30} minutes of writing`).toBe(200);
    const expires = Number(await answer.headerValue('x-session-expires'));
    const serverNow = Math.floor(Date.now() / 1000) + serverOffsetSeconds;
    expect(expires).toBeGreaterThan(serverNow + IDLE_LIMIT_SECONDS - 120);
    await expect.poll(() => page.evaluate(() => Number(localStorage.getItem('loginExpires')))).toBe(expires);
  }
  await expect(field).toHaveValue('김안심 1 2 3 4 5');
  await expect(page.getByTestId('session-expired-dialog')).toHaveCount(0);

  // 2.5 h after logging in, a new page load still finds the member signed in, on the server too.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
  const me = await page.request.get('/api/v1/user/');
  expect(me.status()).toBe(200);

  // Then the member leaves the tab for a little over the idle limit, comes back and types on: the first key
  // press asks the server, which has ended the session, and the login dialog says so.
  const userReloaded = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/v1/user/',
  );
  await page.goto('/report/t/a?step=1');
  await expect(field).toHaveValue('김안심 1 2 3 4 5');
  await userReloaded;
  await settle(page, requests);
  const refused = page.waitForResponse((response) =>
    isSessionCheck(response.url(), response.request().method()),
  );
  await letTimePass(page, clockRequest, IDLE_LIMIT_SECONDS / 60 + 2);
  // A key press, wherever the focus is: the dialog may already cover the field if the page asked first.
  await page.keyboard.press('End');
  expect((await refused).status()).toBe(401);
  const dialog = page.getByRole('dialog', { name: '로그인 시간이 지났습니다' });
  await expect(dialog).toBeVisible();
  // The dialog covers the step it was opened on; the guard does not move the page to /login under it.
  await expect(page).toHaveURL(/\/report\/t\/a\?step=1$/);
  expect((await page.request.get('/api/v1/user/')).status()).toBe(401);
  // The draft written over those hours is still on the device.
  await dialog.getByRole('button', { name: '다시 로그인' }).click();
  await expect(page).toHaveURL(/\/login\?redirect=/);
  expect(new URL(page.url()).searchParams.get('redirect')).toBe('/report/t/a?step=1');
  expect(
    await page.evaluate(() =>
      Object.keys(localStorage)
        .filter((key) => key.startsWith('ansim.reportDraft.'))
        .map((key) => localStorage.getItem(key))
        .join('\n'),
    ),
  ).toContain('김안심 1 2 3 4 5');
  await context.close();
  await clockRequest.dispose();
});
