import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { SITE_INFO_ELEMENT_ID } from '@ansim/shared/constants';
import type { SiteInfo } from '@ansim/shared/site';
import type { FastifyBaseLogger } from 'fastify';

/** The web build's prerender bundle (apps/web/src/entry-server.tsx), inside the build's dot-folder. */
interface PrerenderModule {
  /** Each prerendered path with the source modules its route loads. */
  PRERENDERED_PAGES: Readonly<Record<string, readonly string[]>>;
  renderPage(pathname: string, site: SiteInfo): Promise<{ markup: string; styles: string } | null>;
  /** Pages drawn for a logged-in member, each variant side by side (decision 0023); absent from older bundles. */
  MEMBER_PAGES?: Readonly<Record<string, { modules: readonly string[] }>>;
  renderMemberPage?(
    pathname: string,
    site: SiteInfo,
  ): Promise<{ markup: string; styles: string; variants: readonly string[] } | null>;
}

/** An entry of Vite's build manifest (dist/.vite/manifest.json), keyed by source path. */
interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/**
 * The script and style files the modules load, with everything they import statically: what the client would
 * fetch one after another once its entry script ran, named in the document so the browser fetches them at once.
 */
export function pageAssets(
  manifest: Record<string, ManifestChunk>,
  modules: readonly string[],
): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the web build's manifest`);
    scripts.add(chunk.file);
    for (const style of chunk.css ?? []) styles.add(style);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const module of modules) visit(module);
  return { scripts: [...scripts], styles: [...styles] };
}

/**
 * The prerendered document for `pathname`, or null where the plain index.html is to be sent. `member`: the
 * request carries a session, so only the member pages apply (a member's menu differs from a visitor's).
 */
export type PrerenderedPageSource = (
  pathname: string,
  request: { member: boolean },
) => Promise<PrerenderedPage | null>;

export interface PrerenderedPage {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

const ROOT_ELEMENT = '<div id="root"></div>';

/** JSON inside a script element: `<` escaped, so no value can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The external script that starts the app after the first paint (apps/web/public/start-after-paint.js). */
export const START_AFTER_PAINT_SCRIPT = '/start-after-paint.js';
/**
 * The script that hides the page, before its first paint, from someone who chose English or dark mode in this
 * browser (apps/web/public/display-choice.js): the choice stays in the browser, never in a request.
 */
export const DISPLAY_CHOICE_SCRIPT = '/display-choice.js';

/**
 * index.html made into a prerendered page: the page's markup in its root element, inert until the app has
 * rendered over it (a tap or a keystroke before then would be lost); the operator it names beside it; the
 * script that hides it from someone who chose another language or theme; links to the page's own style
 * sheets; and, in place of the entry script and its preloads, the script that starts them
 * once the page has painted, with the page's own modules added to what it preloads.
 */
export function pageDocument(
  indexHtml: string,
  page: { markup: string; styles?: string; variants?: readonly string[] },
  site: SiteInfo,
  assets: { scripts: string[]; styles: string[] } = { scripts: [], styles: [] },
): string {
  if (!indexHtml.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT}`);
  if (!indexHtml.includes('</head>')) throw new Error('index.html has no </head>');
  let entry: string | undefined;
  const preloads: string[] = [];
  const withoutScripts = indexHtml
    .replace(/[ \t]*<script type="module" crossorigin src="([^"]+)"><\/script>\n?/, (_tag, src: string) => {
      entry = src;
      return '';
    })
    .replace(/[ \t]*<link rel="modulepreload" crossorigin href="([^"]+)">\n?/g, (_tag, href: string) => {
      preloads.push(href);
      return '';
    });
  if (!entry) throw new Error('index.html has no entry module script');
  const missing = (file: string) => !indexHtml.includes(`"/${file}"`);
  for (const file of assets.scripts.filter(missing)) preloads.push(`/${file}`);
  // A member page's variants, for the script to show the one the browser's draft names (decision 0023).
  const variants = page.variants?.length ? ` data-variants="${page.variants.join(' ')}"` : '';
  const head = [
    `<script src="${DISPLAY_CHOICE_SCRIPT}"${variants}></script>`,
    ...assets.styles.filter(missing).map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
    // The components' rules after the style sheets, where Emotion would have appended them.
    ...(page.styles ? [page.styles] : []),
    `<script src="${START_AFTER_PAINT_SCRIPT}" defer data-entry="${entry}" data-preload="${preloads.join(' ')}"></script>`,
  ];
  return withoutScripts
    .replace(/[ \t]*<\/head>/, () => `${head.map((line) => `    ${line}\n`).join('')}  </head>`)
    .replace(
      ROOT_ELEMENT,
      () =>
        `<div id="root" inert>${page.markup}</div><script type="application/json" id="${SITE_INFO_ELEMENT_ID}">${scriptJson(site)}</script>`,
    );
}

/**
 * The public pages as HTML (decision 0020): a first visit paints from the document alone, without waiting for
 * the scripts. Each page is what any logged-out visitor sees, the same for everyone, so it is rendered once, on
 * its first request, and kept for the life of the process. Without a prerender bundle (a build older than it,
 * or none), or when a page fails to render, the caller sends the plain index.html as before.
 */
export function prerenderedPages(
  webDist: string,
  site: SiteInfo,
  log: FastifyBaseLogger,
): PrerenderedPageSource {
  const entry = path.join(webDist, '.server', 'entry-server.js');
  const manifestFile = path.join(webDist, '.vite', 'manifest.json');
  let bundle: Promise<PrerenderModule | null> | undefined;
  // Only the bundle's own few paths are ever kept, so this map cannot grow with what visitors ask for.
  const pages = new Map<string, Promise<PrerenderedPage | null>>();
  /**
   * The build the kept pages were drawn from. `npm run build` under a running server replaces index.html, the
   * manifest and every hashed file: a page kept from the build before names scripts that are gone. Each request
   * compares the build's stamp (the manifest's and the bundle's modification times, one stat each) and, when
   * it changed, drops the kept pages and loads the new bundle (a fresh module URL, so Node does not hand back
   * the old module).
   */
  let builtAt: string | undefined;
  const buildStamp = (): string | null => {
    try {
      return `${fs.statSync(manifestFile).mtimeMs}:${fs.statSync(entry).mtimeMs}`;
    } catch {
      return null;
    }
  };
  const load = (stamp: string) => {
    if (stamp !== builtAt) {
      builtAt = stamp;
      pages.clear();
      bundle = undefined;
    }
    if (!bundle)
      bundle = (
        import(`${pathToFileURL(entry).href}?build=${encodeURIComponent(stamp)}`) as Promise<PrerenderModule>
      ).catch((error: unknown) => {
        log.warn({ err: error }, 'the prerender bundle did not load; index.html is sent instead');
        return null;
      });
    return bundle;
  };

  const render = async (
    loaded: PrerenderModule,
    pathname: string,
    member: boolean,
  ): Promise<PrerenderedPage | null> => {
    try {
      const rendered = member
        ? ((await loaded.renderMemberPage?.(pathname, site)) ?? null)
        : await loaded.renderPage(pathname, site);
      if (rendered === null) return null;
      const [indexHtml, manifest] = await Promise.all([
        fs.promises.readFile(path.join(webDist, 'index.html'), 'utf8'),
        fs.promises.readFile(path.join(webDist, '.vite', 'manifest.json'), 'utf8'),
      ]);
      const modules = member
        ? (loaded.MEMBER_PAGES?.[pathname]?.modules ?? [])
        : (loaded.PRERENDERED_PAGES[pathname] ?? []);
      const html = Buffer.from(
        pageDocument(indexHtml, rendered, site, pageAssets(JSON.parse(manifest), modules)),
      );
      return {
        html,
        br: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        gzip: gzipSync(html, { level: 9 }),
        etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`,
      };
    } catch (error) {
      log.warn({ err: error, page: pathname }, 'prerendering a page failed; index.html is sent instead');
      return null;
    }
  };

  return async (pathname, { member }) => {
    const stamp = buildStamp();
    // No prerender bundle (a build older than it, or none, or one being replaced): the plain index.html.
    if (stamp === null) return null;
    const loaded = await load(stamp);
    const listed = member ? loaded?.MEMBER_PAGES : loaded?.PRERENDERED_PAGES;
    if (!loaded || !listed || !Object.hasOwn(listed, pathname)) return null;
    const key = `${member ? 'member' : 'public'} ${pathname}`;
    let page = pages.get(key);
    if (!page) {
      page = render(loaded, pathname, member);
      pages.set(key, page);
    }
    return page;
  };
}

/**
 * Whether the client router has a page at `pathname`, from the route patterns the web build lists in
 * `.vite/routes.json` (apps/web/vite.config.ts, from src/config/paths.ts): an address it does not know is
 * answered 404, with index.html for the app to draw its not-found page. Read again when the build changes; a
 * build without the list (older than it) knows every address, as before.
 */
export function clientRoutes(webDist: string): (pathname: string) => boolean {
  const file = path.join(webDist, '.vite', 'routes.json');
  let readAt: number | undefined;
  let patterns: RegExp[] | null = null;
  return (pathname) => {
    let modified: number;
    try {
      modified = fs.statSync(file).mtimeMs;
    } catch {
      return true;
    }
    if (modified !== readAt) {
      readAt = modified;
      try {
        const listed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
        patterns = Array.isArray(listed)
          ? listed.filter((item) => typeof item === 'string').map(routePattern)
          : null;
      } catch {
        patterns = null;
      }
    }
    if (!patterns) return true;
    const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
    return patterns.some((pattern) => pattern.test(trimmed));
  };
}

/** A React Router pattern (`/manager/detail/:id`) as an anchored expression: a parameter is one segment. */
function routePattern(route: string): RegExp {
  const source = route
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}
