import type { SiteInfo } from '@ansim/shared/site';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { renderToStringAsync } from 'preact-render-to-string';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { routes } from './app/router';
import { initI18n } from './lib/i18n';
import { primeSiteInfo } from './lib/site-info';

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
 * One page: its markup for `<div id="root">` and the `<style>` elements of the MUI components on it, for the
 * head; null when the route would send a logged-out visitor elsewhere.
 */
export async function renderPage(
  pathname: string,
  site: SiteInfo,
): Promise<{ markup: string; styles: string } | null> {
  await initI18n();
  primeSiteInfo(site);
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pathname, 'http://prerender.invalid')));
  if (context instanceof Response || context.statusCode !== 200) return null;
  const router = createStaticRouter(handler.dataRoutes, context);
  // Emotion's own key, so the browser's cache adopts these elements instead of inserting the rules again; in
  // compat mode it keeps the rules for extraction rather than writing a <style> before each component.
  const cache = createCache({ key: 'css' });
  cache.compat = true;
  const markup = await renderToStringAsync(
    <CacheProvider value={cache}>
      <AppProviders>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </CacheProvider>,
  );
  const { extractCriticalToChunks, constructStyleTagsFromChunks } = createEmotionServer(cache);
  const chunks = extractCriticalToChunks(markup);
  // A page drawn without MUI (decision 0022) has no rules: no empty <style> element for it.
  chunks.styles = chunks.styles.filter((style) => style.css !== '');
  return { markup, styles: constructStyleTagsFromChunks(chunks) };
}
