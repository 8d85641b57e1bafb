import type { Response } from '@playwright/test';
import { expect, server, test } from '../fixtures';

/**
 * What production serves renders with React 19's own renderer (docs/decisions/0033), not a stand-in: the
 * scripts a first visit loads carry react-dom's reconciler and no Preact, and the page's root is a React root.
 */

/** Markers of react-dom's client build that survive minification: its name and version for the devtools hook. */
const REACT_DOM = /rendererPackageName:\s*[`'"]react-dom[`'"]/;
const REACT_VERSION = /reconcilerVersion:\s*[`'"]19\./;
/** Preact's own strings: its options hooks and the property it keeps a root's vnode under. */
const PREACT = /preact|__PREACT_DEVTOOLS__|\b_catchError\b/i;

for (const path of ['/', '/login', '/report']) {
  test(`${path} runs on react-dom 19 and loads no Preact`, async ({ browser }) => {
    const context = await browser.newContext({ baseURL: server.baseURL });
    const page = await context.newPage();
    const scripts: Response[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response);
    });
    const errors: string[] = [];
    page.on('console', (message) => {
      // The browser's own line for a refused request (the logged-out visitor's 401 on the login check) is
      // not the app's: what counts is what the page itself reports, a hydration mismatch among it.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        errors.push(message.text());
    });
    await page.goto(path);
    await expect(page.locator('#root')).not.toHaveAttribute('inert');
    // The app hydrated the server's markup: react-dom marks the container as a root of its own.
    const isReactRoot = await page.evaluate(() =>
      Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('__reactContainer$')),
    );
    expect(isReactRoot, 'the #root element is a react-dom root').toBe(true);

    const bodies = await Promise.all(
      scripts.map(async (response) => ({ url: response.url(), text: await response.text() })),
    );
    expect(bodies.filter((body) => REACT_DOM.test(body.text) && REACT_VERSION.test(body.text))).toHaveLength(
      1,
    );
    expect(bodies.filter((body) => PREACT.test(body.text)).map((body) => body.url)).toEqual([]);
    // React 19 says a hydration mismatch in the console; none is allowed on a prerendered page.
    expect(errors).toEqual([]);
    await context.close();
  });
}
