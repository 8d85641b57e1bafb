import './styles/shell.css';
import './styles/plain-controls.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { installAnalytics } from './lib/analytics';
import { initI18n } from './lib/i18n';
import { refreshLoginStatus } from './lib/login-state';
import { installSessionKeepAlive } from './lib/session-keep-alive';

// Start-up order of docs/requirements.md R-WEB-4: analytics plugin, mount, then refresh the login status.
void installAnalytics().catch((error) => console.warn('Analytics could not start', error));

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

/**
 * Ends the current task: what follows runs in a task of its own. Evaluating the app's modules, starting the
 * router and rendering each take tens of milliseconds on a phone; run as one task, a tap on the page would wait
 * for all of them. A message, not a timer, so a test's fake clock cannot hold the app back.
 */
const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

/**
 * A prerendered page (decision 0020) is already on screen: the first render must be the page itself, not the
 * router's loading fallback, so it waits until the route's lazy modules are in. React then hydrates the
 * server's markup, reusing its elements.
 */
function routerReady(router: ReturnType<typeof createAppRouter>): Promise<void> {
  if (!container?.hasChildNodes() || router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * A member page comes with a variant per report type until its document is parsed, when
 * public/display-choice.js keeps the one it showed (decision 0023): the app renders over that alone.
 */
const documentParsed = (): Promise<void> =>
  document.readyState === 'loading'
    ? new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }))
    : Promise.resolve();

// Korean initialises synchronously; waiting only matters when another stored language must be fetched.
void nextTask()
  .then(() => {
    // Pretendard's faces arrive with the app, after a prerendered page's first paint: a page of varied Korean
    // text needs 8 to 12 of its subsets (200–300 KB), which on a phone's connection would hold back that paint
    // and the app's own scripts behind them. Until then the text is drawn in the system's Korean font
    // (decision 0022).
    void import('pretendard/dist/web/variable/pretendardvariable-dynamic-subset.css');
    const router = createAppRouter();
    return documentParsed()
      .then(() => Promise.all([initI18n(), routerReady(router)]))
      .then(nextTask)
      .then(() => router);
  })
  .then((router) => {
    const app = (
      <StrictMode>
        <AppProviders>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>
    );
    // The prerendered page is drawn in Korean and the light theme; display-choice.js hid it from someone who
    // chose otherwise, and for them the app draws the page afresh instead of hydrating markup it would change.
    if (document.documentElement.classList.contains('prerender-hidden')) container.replaceChildren();
    if (container.hasChildNodes())
      hydrateRoot(container, app, {
        // React 19 draws the page afresh where the client's first render differs from the server's: a defect of
        // the prerender, said in the console, where the end-to-end suite looks for it.
        onRecoverableError: (error) => console.error('Hydration of the prerendered page failed', error),
      });
    else createRoot(container).render(app);
    // The server keeps a prerendered page inert until now: the app's handlers are on its elements from here on.
    // A member page none of whose variants was shown arrives empty, and inert all the same.
    container.removeAttribute('inert');
    void refreshLoginStatus();
    installSessionKeepAlive();
  });
