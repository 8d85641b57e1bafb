import type { Browser, BrowserContext, Cookie, Page, Request } from '@playwright/test';
import { expect, loginThroughApi, server, type TestUser, test } from '../fixtures';

// The pages the server sends drawn in HTML (apps/web/src/entry-server.tsx, decisions 0020 and 0023).
const PRERENDERED = ['/', '/privacy', '/terms', '/login', '/report'];
const MEMBER_PAGE = '/report/t/a';
const DRAFT_TYPE = 'ansim.reportDraft.report_type';

/** Who visits: a stranger, or a member whose browser holds a session and a draft of `reportType`. */
interface Visitor {
  cookies: Cookie[];
  reportType?: 'brief' | 'formal';
}
const STRANGER: Visitor = { cookies: [] };

/** A member's session cookies, logged in through the API. */
async function memberCookies(browser: Browser, user: TestUser): Promise<Cookie[]> {
  const context = await browser.newContext({ baseURL: server.baseURL });
  try {
    await loginThroughApi(context.request, server.baseURL, user);
    return (await context.storageState()).cookies;
  } finally {
    await context.close();
  }
}

/** The visitor's cookies, and, for a member, the login state and draft the app keeps in the browser. */
async function visitAs(context: BrowserContext, visitor: Visitor) {
  await context.addCookies(visitor.cookies);
  if (visitor.reportType)
    await context.addInitScript(
      ([key, type]) => {
        localStorage.setItem('loginExpires', String(Math.floor(Date.now() / 1000) + 3600));
        localStorage.setItem(key, JSON.stringify(type));
      },
      [DRAFT_TYPE, visitor.reportType] as const,
    );
}

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
async function drawnWithoutScripts(
  browser: Browser,
  path: string,
  width: number,
  fontSheets: string[],
  visitor: Visitor,
) {
  const context = await browser.newContext({
    baseURL: server.baseURL,
    javaScriptEnabled: false,
    viewport: { width, height: 900 },
  });
  await context.addCookies(visitor.cookies);
  try {
    // Linked in the document's head, as the app's own style sheet is: this page runs no script to add them.
    // Nor does it run the one that shows a member page's variant: the variant is named as it would have named it.
    await context.route(
      (url) => url.pathname === path,
      async (route) => {
        const response = await route.fetch();
        const links = fontSheets.map((href) => `<link rel="stylesheet" href="${href}">`).join('');
        const chosen = visitor.reportType ? ` data-prerender-variant="${visitor.reportType}"` : '';
        await route.fulfill({
          response,
          body: (await response.text())
            .replace('</head>', `${links}</head>`)
            .replace('<html', `<html${chosen}`),
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

/**
 * The page at both widths: the app takes it over without moving any element the server drew, and without
 * taking any out of the page (a member page's variants not shown excepted: they were never on screen).
 */
async function expectTakenOverInPlace(browser: Browser, path: string, visitor: Visitor) {
  for (const width of [375, 1280]) {
    const context = await browser.newContext({ baseURL: server.baseURL, viewport: { width, height: 900 } });
    try {
      await visitAs(context, visitor);
      const page = await context.newPage();
      // Every element the client's render takes out of the page, from the first byte.
      await page.addInitScript(() => {
        const record = { removed: [] as Element[] };
        (window as unknown as { __prerender: typeof record }).__prerender = record;
        new MutationObserver((mutations) => {
          // Emotion adopts the server's <style> elements and may move them within <head>.
          for (const mutation of mutations)
            for (const node of mutation.removedNodes)
              if (node instanceof Element && node.tagName !== 'STYLE') record.removed.push(node);
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(path);
      // The app removes `inert` once it has rendered over the page.
      await expect(page.locator('#root')).not.toHaveAttribute('inert');
      const fontSheet = page.locator('link[rel="stylesheet"][href*="pretendard" i]');
      await expect(fontSheet, 'the app adds its font faces').toHaveCount(1);
      // Its faces are known once the sheet has loaded: asked for before then, the font would load nothing.
      await page.waitForFunction(() =>
        [...document.fonts].some((face) => face.family.includes('Pretendard')),
      );
      const taken = await layoutOf(page);
      const fontHref = await fontSheet.getAttribute('href');
      const drawn = await drawnWithoutScripts(
        browser,
        path,
        width,
        [new URL(fontHref ?? '', page.url()).href],
        visitor,
      );
      expect(drawn.length, 'the prerendered page has content').toBeGreaterThan(3);
      expect(taken).toEqual(drawn);
      // An element moved out of a variant's wrapper into the page was taken out and put back: it is still there.
      const removed = await page.evaluate(() =>
        (window as unknown as { __prerender: { removed: Element[] } }).__prerender.removed
          .filter((element) => !element.isConnected && !element.hasAttribute('data-prerender-variant'))
          .map((element) => `${element.tagName}.${element.className}`),
      );
      expect(removed, 'elements the client replaced').toEqual([]);
    } finally {
      await context.close();
    }
  }
}

for (const path of PRERENDERED) {
  test(`${path} paints from its HTML, and the app takes it over without moving or replacing anything`, async ({
    browser,
  }) => {
    await expectTakenOverInPlace(browser, path, STRANGER);
  });
}

for (const reportType of ['brief', 'formal'] as const) {
  test(`the wizard's first step of a ${reportType} draft paints from its HTML for a member, and the app takes it over in place`, async ({
    browser,
    member,
  }) => {
    await expectTakenOverInPlace(browser, MEMBER_PAGE, {
      cookies: await memberCookies(browser, member),
      reportType,
    });
  });
}

test("a member page shows only the variant of the browser's draft, and none where it would not be the page", async ({
  browser,
  member,
}) => {
  const cookies = await memberCookies(browser, member);
  const context = await browser.newContext({ baseURL: server.baseURL });
  try {
    await context.addCookies(cookies);
    const page = await context.newPage();
    const documents: Request[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(request);
    });
    // The app never starts here: what is on screen is the server's page and what ran before its first paint.
    await page.route(/\/assets\/index-[\w-]+\.js$/, (route) => route.abort());
    await page.goto('/privacy');
    const heading = page.getByRole('heading', { level: 1 });
    const show = async (type: string | null, search = '', step?: number) => {
      await page.evaluate(
        ([key, value, storedStep]) => {
          localStorage.setItem('loginExpires', String(Math.floor(Date.now() / 1000) + 3600));
          if (value === null) localStorage.removeItem(key);
          else localStorage.setItem(key, JSON.stringify(value));
          if (storedStep === undefined) localStorage.removeItem('ansim.reportDraft.step');
          else localStorage.setItem('ansim.reportDraft.step', String(storedStep));
        },
        [DRAFT_TYPE, type, step] as const,
      );
      await page.goto(`${MEMBER_PAGE}${search}`);
    };

    await show('brief');
    await expect(page.locator('#root')).toHaveAttribute('inert', '');
    await expect(heading).toHaveText('약식 신고 작성');
    await show('formal', '?step=1');
    await expect(heading).toHaveText('정식 신고 작성');
    await expect(page.getByRole('heading', { name: '신고인·행위자 정보 및 관계' })).toBeVisible();
    // Another step, by the address or by the draft, or an anonymous draft (whose first step waits for its intake
    // token): nothing of the server's page shows, and the app draws the page as it would without one.
    for (const [type, search, step] of [
      ['formal', '?step=2', undefined],
      ['formal', '', 2],
      ['anonym', '', undefined],
      [null, '', undefined],
    ] as const) {
      await show(type, search, step);
      await expect(heading, `${type} ${search} ${step}`).toHaveCount(0);
    }
    // A draft's type never leaves the browser: every member gets the same document.
    expect(documents.length).toBeGreaterThan(5);
    for (const request of documents)
      expect(`${request.url()} ${JSON.stringify(await request.allHeaders())}`).not.toMatch(
        /brief|formal|anonym/,
      );

    await page.unroute(/\/assets\/index-[\w-]+\.js$/);
    await show('formal', '?step=2');
    await expect(page.locator('#root')).not.toHaveAttribute('inert');
    // Step 2 cannot be reached with step 1 unanswered: the app brings the reporter back to it.
    await expect(page).toHaveURL(/\?step=1$/);
    await expect(heading).toHaveText('정식 신고 작성');
  } finally {
    await context.close();
  }
});

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
