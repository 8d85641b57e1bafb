import type { Browser, Page } from '@playwright/test';
import { expect, server, test } from '../fixtures';

// The pages the server sends drawn in HTML (apps/web/src/entry-server.tsx, decision 0020).
const PRERENDERED = ['/', '/privacy', '/terms', '/login', '/report'];

/** Where the page's visible parts sit: the main column's headings, paragraphs, fields, buttons and links. */
async function layoutOf(page: Page) {
  // Every face the page's text needs, loaded before anything is measured: text drawn in a fallback font sits
  // elsewhere than in Pretendard.
  await page.evaluate(async () => {
    await document.fonts.load('1em "Pretendard Variable"', document.body.textContent ?? '');
    await document.fonts.ready;
  });
  return page.evaluate(() =>
    [
      ...document.querySelectorAll(
        'header, main h1, main h2, main p, main input, main button, main a, footer',
      ),
    ]
      // What is not drawn (a closed <details>'s answer) has no place to compare: Chromium reports such an
      // element's box as laid out on one visit and as 0×0 on another.
      .filter((element) => element.checkVisibility())
      .slice(0, 40)
      .map((element) => {
        const box = element.getBoundingClientRect();
        // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees, as drawn, is what is compared
        return `${element.tagName} ${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}×${Math.round(box.height)} ${(element as HTMLElement).innerText.trim().slice(0, 20)}`;
      }),
  );
}

/**
 * The page as the server drew it, with the app's own font faces added: they come with the app, after the
 * first paint (decision 0022), so the page and the app are compared in the same font.
 */
async function drawnWithoutScripts(browser: Browser, path: string, width: number, fontSheets: string[]) {
  const context = await browser.newContext({
    baseURL: server.baseURL,
    javaScriptEnabled: false,
    viewport: { width, height: 900 },
  });
  try {
    // Linked in the document's head, as the app's own style sheet is: this page runs no script to add them.
    await context.route(
      (url) => url.pathname === path,
      async (route) => {
        const response = await route.fetch();
        const links = fontSheets.map((href) => `<link rel="stylesheet" href="${href}">`).join('');
        await route.fulfill({
          response,
          body: (await response.text()).replace('</head>', `${links}</head>`),
        });
      },
    );
    const page = await context.newPage();
    await page.goto(path);
    await expect(page.locator('#root')).toHaveAttribute('inert', '');
    return await layoutOf(page);
  } finally {
    await context.close();
  }
}

for (const path of PRERENDERED) {
  test(`${path} paints from its HTML, and the app takes it over without moving or replacing anything`, async ({
    browser,
  }) => {
    for (const width of [375, 1280]) {
      const context = await browser.newContext({ baseURL: server.baseURL, viewport: { width, height: 900 } });
      try {
        const page = await context.newPage();
        // Every element the client's render takes out of the page, from the first byte.
        await page.addInitScript(() => {
          const record = { removed: [] as string[] };
          (window as unknown as { __prerender: typeof record }).__prerender = record;
          new MutationObserver((mutations) => {
            // Emotion adopts the server's <style> elements and may move them within <head>.
            for (const mutation of mutations)
              for (const node of mutation.removedNodes)
                if (node instanceof Element && node.tagName !== 'STYLE')
                  record.removed.push(`${node.tagName}.${node.className}`);
          }).observe(document, { childList: true, subtree: true });
        });
        await page.goto(path);
        // The app removes `inert` once it has rendered over the page.
        await expect(page.locator('#root')).not.toHaveAttribute('inert');
        const fontSheet = page.locator('link[rel="stylesheet"][href*="pretendard" i]');
        await expect(fontSheet, 'the app adds its font faces').toHaveCount(1);
        const taken = await layoutOf(page);
        const fontHref = await fontSheet.getAttribute('href');
        const drawn = await drawnWithoutScripts(browser, path, width, [
          new URL(fontHref ?? '', page.url()).href,
        ]);
        expect(drawn.length, 'the prerendered page has content').toBeGreaterThan(3);
        expect(taken).toEqual(drawn);
        const record = await page.evaluate(
          () => (window as unknown as { __prerender: { removed: string[] } }).__prerender,
        );
        expect(record.removed, 'elements the client replaced').toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
}

test('the prerendered login form works once the app has started', async ({ page }) => {
  await page.goto('/login');
  // Playwright waits for the form to leave `inert`: a person typing earlier is kept out rather than lost.
  await page.getByLabel('이메일').fill('nobody@example.com');
  await page.getByLabel('비밀번호').fill('wrong-password-123');
  await expect(page.getByLabel('이메일')).toHaveValue('nobody@example.com');
  await page.getByRole('link', { name: '회원가입' }).click();
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('회원가입');
});

for (const [choice, key, value] of [
  ['dark mode', 'ansim.colorMode', 'dark'],
  ['English', 'ansim.language', 'en'],
] as const) {
  test(`a visitor who chose ${choice} never sees the Korean light page switch under them`, async ({
    page,
  }) => {
    // The app never starts here: what is on screen is the server's page and what runs before its first paint.
    await page.route(/\/assets\/index-[\w-]+\.js$/, (route) => route.abort());
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.evaluate((stored) => localStorage.setItem(stored.key, stored.value), { key, value });
    await page.reload();
    await expect(page.locator('#root')).toHaveAttribute('inert', '');
    await expect(page.locator('#root')).toBeHidden();
    // The choice never leaves the browser: no cookie carries it to the server.
    const cookies = await page.context().cookies();
    expect(cookies.filter((cookie) => /lang|colou?r|mode|theme/i.test(cookie.name))).toEqual([]);

    await page.unroute(/\/assets\/index-[\w-]+\.js$/);
    await page.reload();
    await expect(page.locator('#root')).not.toHaveAttribute('inert');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    if (value === 'dark') await expect(page.locator('html')).toHaveAttribute('data-color-mode', 'dark');
    else await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });
}
