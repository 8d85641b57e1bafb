import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { SESSION_COOKIE } from '@ansim/shared/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPLAY_CHOICE_SCRIPT, pageAssets, START_AFTER_PAINT_SCRIPT } from '../src/prerendered-pages.ts';
import { createTestApp, type TestContext } from './helpers.ts';

// A web build as Vite lays it out: index.html with the entry script, its preloads and style sheet; the client
// manifest; and the prerender bundle in the dot-folder (here a stand-in with the real module's exports).
const INDEX_HTML = `<!doctype html>
<html lang="ko">
  <head>
    <title>안심신고</title>
    <script type="module" crossorigin src="/assets/index-E1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/shared-S1.js">
    <link rel="stylesheet" crossorigin href="/assets/index-C1.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;
const MANIFEST = {
  'index.html': { file: 'assets/index-E1.js', css: ['assets/index-C1.css'], imports: ['_shared-S1.js'] },
  '_shared-S1.js': { file: 'assets/shared-S1.js' },
  'src/pages/landing.tsx': {
    file: 'assets/landing-L1.js',
    css: ['assets/landing-L1.css'],
    imports: ['index.html', '_shared-S1.js', '_site-info-I1.js'],
  },
  '_site-info-I1.js': { file: 'assets/site-info-I1.js' },
  'src/pages/wizard.tsx': { file: 'assets/wizard-W1.js', imports: ['index.html', '_shared-S1.js'] },
};
const SERVER_ENTRY = `
export const PRERENDERED_PAGES = {
  '/': ['src/pages/landing.tsx'],
  '/elsewhere': [],
  '/broken': [],
};
export const MEMBER_PAGES = {
  '/report/t/a': { modules: ['src/pages/wizard.tsx'] },
};
export async function renderMemberPage(pathname, site) {
  return {
    markup: '<div data-prerender-variant="brief"><h1>간편 신고</h1></div><div data-prerender-variant="formal"><h1>정식 신고</h1></div>',
    styles: '',
    variants: ['brief', 'formal'],
  };
}
export async function renderPage(pathname, site) {
  if (pathname === '/elsewhere') return null;
  if (pathname === '/broken') throw new Error('render failed');
  const text = site.operator_name.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return {
    markup: '<main><h1 class="css-h1">안전하고 공정한 직장</h1><p>' + text + '</p></main>',
    styles: '<style data-emotion="css h1">.css-h1{font-size:2rem;}</style>',
  };
}
`;
// A value that would end the JSON's script element if it were not escaped.
const OPERATOR_NAME = '운영팀</script><script>alert(1)</script>';

let ctx: TestContext;
let plain: TestContext;
let webDist: string;
let bareDist: string;

function writeDist(dir: string, withPrerender: boolean) {
  fs.mkdirSync(path.join(dir, '.vite'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX_HTML);
  fs.writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  if (!withPrerender) return;
  fs.mkdirSync(path.join(dir, '.server'));
  fs.writeFileSync(path.join(dir, '.server', 'entry-server.js'), SERVER_ENTRY);
}

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-prerender-'));
  bareDist = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-no-prerender-'));
  writeDist(webDist, true);
  writeDist(bareDist, false);
  ctx = await createTestApp({
    config: { WEB_DIST: webDist, OPERATOR_NAME, OPERATOR_CONTACT: 'privacy@ansim.example' },
  });
  plain = await createTestApp({ config: { WEB_DIST: bareDist } });
});
afterAll(async () => {
  await ctx.close();
  await plain.close();
  fs.rmSync(webDist, { recursive: true, force: true });
  fs.rmSync(bareDist, { recursive: true, force: true });
});

const get = (app: TestContext, url: string, headers: Record<string, string> = {}) =>
  app.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });

describe('prerendered public pages (decision 0020)', () => {
  it('sends the page drawn in HTML, inert until the app starts after the first paint', async () => {
    const response = await get(ctx, '/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    const html = response.body;
    expect(html).toContain('<div id="root" inert><main><h1 class="css-h1">안전하고 공정한 직장</h1>');
    // The entry script and its preloads are started by the after-paint script, with the page's own modules.
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toContain(
      `<script src="${START_AFTER_PAINT_SCRIPT}" defer data-entry="/assets/index-E1.js" data-preload="/assets/shared-S1.js /assets/landing-L1.js /assets/site-info-I1.js"></script>`,
    );
    // Before the first paint, a script that hides the page from someone who chose another language or theme.
    expect(html).toContain(`<script src="${DISPLAY_CHOICE_SCRIPT}"></script>`);
    expect(html.indexOf(DISPLAY_CHOICE_SCRIPT)).toBeLessThan(html.indexOf('</head>'));
    // The page's style sheet is there at the first paint, once, after the app's own.
    expect(html.indexOf('/assets/index-C1.css')).toBeLessThan(html.indexOf('/assets/landing-L1.css'));
    expect(html.split('/assets/index-C1.css')).toHaveLength(2);
    expect(html.indexOf('/assets/landing-L1.css')).toBeLessThan(html.indexOf('</head>'));
    // The components' rules are in the head, after the style sheets, once.
    const rules = html.indexOf('<style data-emotion="css h1">.css-h1{font-size:2rem;}</style>');
    expect(rules).toBeGreaterThan(html.indexOf('/assets/landing-L1.css'));
    expect(rules).toBeLessThan(html.indexOf('</head>'));
  });

  it('names the operator from the configuration, escaped so no value can end its script element', async () => {
    const html = (await get(ctx, '/')).body;
    const json = html.match(/<script type="application\/json" id="site-info">(.*?)<\/script>/)?.[1];
    expect(json).toBeDefined();
    expect(JSON.parse(json!)).toEqual({
      operator_name: OPERATOR_NAME,
      operator_contact: 'privacy@ansim.example',
    });
    expect(html).not.toContain('<script>alert(1)');
    expect(json).not.toContain('</script>');
  });

  it('compresses as the client accepts, and answers 304 to its validator', async () => {
    const identity = await get(ctx, '/');
    const brotli = await get(ctx, '/', { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toContain('Accept-Encoding');
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toBe(identity.body);
    const gzip = await get(ctx, '/', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(identity.body);

    const etag = String(identity.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get(ctx, '/', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('sends the plain index.html to every other page, and where the page cannot be rendered', async () => {
    for (const url of ['/dashboard', '/elsewhere', '/broken', '/report/t/a?step=2']) {
      const response = await get(ctx, url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(INDEX_HTML);
    }
    // The query is the client's: /?utm=… is the same page.
    expect((await get(ctx, '/?utm_source=poster')).body).toContain('<div id="root" inert>');
  });

  it('sends the plain page to a logged-in visitor, whose menu the app draws', async () => {
    const response = await get(ctx, '/', { cookie: `${SESSION_COOKIE}=any-session-id` });
    expect(response.body).toBe(INDEX_HTML);
  });
});

describe('prerendered member pages (decision 0023)', () => {
  const member = { cookie: `${SESSION_COOKIE}=any-session-id` };

  it('sends a member every variant of the page, for the browser to show the one its draft names', async () => {
    const response = await get(ctx, '/report/t/a?step=1', member);
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).toContain(
      '<div id="root" inert><div data-prerender-variant="brief"><h1>간편 신고</h1></div><div data-prerender-variant="formal">',
    );
    // The script before the first paint is told which variants there are; nothing else names them.
    expect(html).toContain(`<script src="${DISPLAY_CHOICE_SCRIPT}" data-variants="brief formal"></script>`);
    expect(html).toContain('data-preload="/assets/shared-S1.js /assets/wizard-W1.js"');
    // No empty style element where the page has no component rules.
    expect(html).not.toContain('<style');
  });

  it('draws the member pages only for a request with a session, and the public ones only without', async () => {
    expect((await get(ctx, '/report/t/a')).body).toBe(INDEX_HTML);
    expect((await get(ctx, '/dashboard', member)).body).toBe(INDEX_HTML);
    expect((await get(ctx, '/login', member)).body).toBe(INDEX_HTML);
  });

  it('sends the plain index.html when the build has no prerender bundle', async () => {
    const response = await get(plain, '/');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(INDEX_HTML);
  });

  it('sends the new build once dist is rebuilt under the running server, not pages naming files now gone', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-rebuilt-'));
    writeDist(dist, true);
    const app = await createTestApp({ config: { WEB_DIST: dist } });
    try {
      const before = await get(app, '/');
      expect(before.body).toContain('/assets/index-E1.js');
      expect(before.body).toContain('안전하고 공정한 직장');
      // `npm run build` again: new hashes in index.html and the manifest, a new prerender bundle.
      const later = Date.now() / 1000 + 5;
      fs.writeFileSync(path.join(dist, 'index.html'), INDEX_HTML.replaceAll('-E1.', '-E2.'));
      fs.writeFileSync(
        path.join(dist, '.vite', 'manifest.json'),
        JSON.stringify(MANIFEST).replaceAll('-E1.', '-E2.').replaceAll('-L1.', '-L2.'),
      );
      fs.writeFileSync(
        path.join(dist, '.server', 'entry-server.js'),
        SERVER_ENTRY.replace('안전하고 공정한 직장', '새 빌드의 첫 화면'),
      );
      for (const file of ['.vite/manifest.json', '.server/entry-server.js'])
        fs.utimesSync(path.join(dist, file), later, later);
      const after = await get(app, '/');
      expect(after.statusCode).toBe(200);
      expect(after.body).toContain('/assets/index-E2.js');
      expect(after.body).toContain('/assets/landing-L2.js');
      expect(after.body).not.toContain('-E1.');
      expect(after.body).toContain('새 빌드의 첫 화면');
    } finally {
      await app.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it('never serves the prerender bundle or the manifest as files', async () => {
    for (const url of ['/.server/entry-server.js', '/.vite/manifest.json']) {
      const response = await get(ctx, url);
      expect(response.body, url).not.toContain('renderPage');
      expect(response.body, url).not.toContain('src/pages/landing.tsx');
    }
  });
});

describe('pageAssets', () => {
  it('follows static imports to every script and style sheet, each once', () => {
    expect(pageAssets(MANIFEST, ['src/pages/landing.tsx'])).toEqual({
      scripts: [
        'assets/landing-L1.js',
        'assets/index-E1.js',
        'assets/shared-S1.js',
        'assets/site-info-I1.js',
      ],
      styles: ['assets/landing-L1.css', 'assets/index-C1.css'],
    });
  });

  it('refuses a module the build does not have, rather than send a page without its styles', () => {
    expect(() => pageAssets(MANIFEST, ['src/pages/gone.tsx'])).toThrow(/src\/pages\/gone\.tsx/);
  });
});
