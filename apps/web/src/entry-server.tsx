import type { ReporterReportType } from '@ansim/shared/constants';
import type { SiteInfo } from '@ansim/shared/site';
import createCache, { type EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { renderToReadableStream } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { routes } from './app/router';
import { initI18n } from './lib/i18n';
import { useLoginState } from './lib/login-state';
import { primeSiteInfo } from './lib/site-info';
import { useReportForm } from './stores/report-form-store';

/**
 * The public pages a first visit most often opens, rendered to HTML when the server starts (decision 0020): the
 * page paints from the HTML alone, before any script has loaded, and the client then renders the same tree over
 * it. Each is what a logged-out visitor sees, in Korean and the light theme: nothing here depends on who asks.
 */
const WITH_QUERY = 'src/app/page-query.tsx';
/**
 * Each prerendered page with the source modules its route loads (app/router.tsx: the page, and the providers
 * module its route options name). The server links their style sheets and scripts from the client build's
 * manifest, so the page is styled at its first paint and its scripts load at once instead of one after another.
 * The end-to-end suite fails when a page moves between its prerendered paint and the client's render, as it
 * would with a style sheet missing from this list.
 */
export const PRERENDERED_PAGES: Readonly<Record<string, readonly string[]>> = {
  '/': ['src/features/landing/landing-page.tsx'],
  '/privacy': ['src/features/policies/privacy-page.tsx'],
  '/terms': ['src/features/policies/terms-page.tsx'],
  '/login': ['src/features/auth/pages/login-page.tsx', WITH_QUERY],
  '/report': ['src/features/report-wizard/pages/report-type-page.tsx', WITH_QUERY],
};

/**
 * Pages a logged-in member opens first, drawn once per variant of what the browser keeps to itself (decision
 * 0023): the wizard's first step for each report type whose step the server can draw. The server never learns
 * which type a draft holds; the document carries every variant and `public/display-choice.js` shows the one the
 * browser's draft names before the first paint. The anonymous wizard is not here: its first step waits for the
 * draft's intake token, which only the browser holds.
 */
export const MEMBER_PAGES: Readonly<
  Record<string, { modules: readonly string[]; variants: readonly ReporterReportType[] }>
> = {
  '/report/t/a': {
    modules: [
      'src/features/report-wizard/pages/wizard-layout.tsx',
      'src/features/report-wizard/pages/wizard-step-page.tsx',
      WITH_QUERY,
    ],
    variants: ['brief', 'formal'],
  },
};

// The stores are the app's module-level ones: one page is drawn at a time, so no render sees another's state.
let drawing: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(draw: () => Promise<T>): Promise<T> {
  const result = drawing.then(draw, draw);
  drawing = result.catch(() => undefined);
  return result;
}

/** Runs `draw` as a logged-in member whose draft holds `reportType`, and puts the stores back after it. */
async function asMemberWithDraft<T>(reportType: ReporterReportType, draw: () => Promise<T>): Promise<T> {
  // React's server render reads a store through useSyncExternalStore's server snapshot, which zustand takes
  // from the store's initial state: that is where the member's state goes for the draw, and is put back after.
  // In the browser the stores' initial state is read from storage, so hydration sees the same state.
  const login = useLoginState.getInitialState();
  const draft = useReportForm.getInitialState();
  const kept = { expires: login.expires, form: draft.form, step: draft.step };
  // A session as the app sees it on load: an expiry later than now. Its value is never drawn.
  login.expires = Number.MAX_SAFE_INTEGER;
  draft.form = { ...draft.form, report_type: reportType };
  draft.step = 0;
  try {
    return await draw();
  } finally {
    login.expires = kept.expires;
    draft.form = kept.form;
    draft.step = kept.step;
  }
}

/**
 * React's server renderer, once everything the tree suspends on (its lazy parts) has resolved: the whole page
 * in one piece, its Suspense boundaries complete, so it needs no inline script to finish it (the CSP allows
 * none) and the browser hydrates it as drawn. A render error fails the page instead of leaving a fallback in it.
 */
async function renderToHtml(node: React.ReactNode): Promise<string> {
  let failure: unknown;
  const stream = await renderToReadableStream(node, {
    // A completed boundary larger than this is sent apart, after the page, with a script to move it in place;
    // the page is sent whole instead.
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    onError: (error) => {
      failure ??= error;
    },
  });
  await stream.allReady;
  const html = await new Response(stream).text();
  if (failure !== undefined) throw failure;
  if (html.includes('<script')) throw new Error('the prerendered page would need an inline script');
  return html;
}

/** The route's markup for `pathname`, with its MUI rules left in `cache`; null when the route sends elsewhere. */
async function drawRoute(pathname: string, cache: EmotionCache): Promise<string | null> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pathname, 'http://prerender.invalid')));
  if (context instanceof Response || context.statusCode !== 200) return null;
  const router = createStaticRouter(handler.dataRoutes, context);
  const markup = await renderToHtml(
    <CacheProvider value={cache}>
      <AppProviders>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </CacheProvider>,
  );
  // A route whose guard sends the visitor elsewhere is drawn without its layout: the root route renders only
  // the redirect, which the static router cannot follow.
  return markup.includes('<main') ? markup : null;
}

/**
 * One document's markup, drawn by `draw` into an Emotion cache, and the `<style>` elements of the MUI components
 * on it, for the head; null when `draw` drew nothing.
 */
function drawDocument(
  site: SiteInfo,
  draw: (cache: EmotionCache) => Promise<string | null>,
): Promise<{ markup: string; styles: string } | null> {
  return oneAtATime(async () => {
    await initI18n();
    primeSiteInfo(site);
    // Emotion's own key, so the browser's cache adopts these elements instead of inserting the rules again; in
    // compat mode it keeps the rules for extraction rather than writing a <style> before each component.
    const cache = createCache({ key: 'css' });
    cache.compat = true;
    const markup = await draw(cache);
    if (markup === null) return null;
    const { extractCriticalToChunks, constructStyleTagsFromChunks } = createEmotionServer(cache);
    const chunks = extractCriticalToChunks(markup);
    // A page drawn without MUI (decision 0022) has no rules: no empty <style> element for it.
    chunks.styles = chunks.styles.filter((style) => style.css !== '');
    return { markup, styles: constructStyleTagsFromChunks(chunks) };
  });
}

/** A public page (PRERENDERED_PAGES); null when the route would send a logged-out visitor elsewhere. */
export function renderPage(
  pathname: string,
  site: SiteInfo,
): Promise<{ markup: string; styles: string } | null> {
  return drawDocument(site, (cache) => drawRoute(pathname, cache));
}

/**
 * A member page (MEMBER_PAGES): each variant drawn for a logged-in member whose draft holds it, side by side in
 * elements the browser shows one of; null when a variant would send the member elsewhere.
 */
export function renderMemberPage(
  pathname: string,
  site: SiteInfo,
): Promise<{ markup: string; styles: string; variants: readonly string[] } | null> {
  const page = MEMBER_PAGES[pathname];
  if (!page) return Promise.resolve(null);
  const drawn = drawDocument(site, async (cache) => {
    const variants: string[] = [];
    for (const reportType of page.variants) {
      const markup = await asMemberWithDraft(reportType, () => drawRoute(pathname, cache));
      if (markup === null) return null;
      // The attribute public/display-choice.js and styles/shell.css know a variant by.
      variants.push(`<div data-prerender-variant="${reportType}">${markup}</div>`);
    }
    return variants.join('');
  });
  return drawn.then((document) => document && { ...document, variants: page.variants });
}
