import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const preactDir = path.dirname(createRequire(import.meta.url).resolve('preact/package.json'));
const preactFile = (file: string) => path.join(preactDir, file);
/**
 * React's names resolve to Preact 11's files by absolute path, for `import` and `require` alike: resolved by
 * name from a dependency's folder they would reach the Preact 10 that posthog-js keeps for itself, and two
 * copies of Preact mean hooks that see no component rendering (docs/decisions/0015).
 */
const preactAliases = Object.entries({
  react: 'compat/dist/compat.mjs',
  'react-dom': 'compat/dist/compat.mjs',
  'react-dom/client': 'compat/client.mjs',
  'react/jsx-runtime': 'jsx-runtime/dist/jsxRuntime.mjs',
  'react/jsx-dev-runtime': 'jsx-runtime/dist/jsxRuntime.mjs',
}).map(([name, file]) => ({ find: new RegExp(`^${name}$`), replacement: preactFile(file) }));

/**
 * The prerender (src/entry-server.tsx, decision 0020) renders with preact-render-to-string, which sits at the
 * workspace root beside posthog's Preact 10: it must reach the app's Preact 11 too, or the hooks of the page and
 * the renderer's own would live in two copies of Preact.
 */
const preactSelfAlias = { find: /^preact(\/.*)?$/, replacement: `${preactDir}$1` };

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  resolve: {
    alias: isSsrBuild ? [...preactAliases, preactSelfAlias] : preactAliases,
  },
  // The server bundle carries every dependency inside it, so React's names reach Preact there as they do in the
  // browser (an external react-router would import React 19 itself).
  ssr: { noExternal: true },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:3000', changeOrigin: false },
    },
  },
  worker: {
    // A worker runs under the CSP of its own response, so the server keeps the CSP on these files and on no
    // other script (apps/api/src/app.ts, WORKER_SCRIPT_PREFIX): the prefix is how it tells them apart.
    rolldownOptions: { output: { entryFileNames: 'assets/worker-[name]-[hash].js' } },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // Emits .vite/manifest.json so the initial-JS budget of the landing route can be measured from the build.
    manifest: !isSsrBuild,
    copyPublicDir: !isSsrBuild,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Left to itself the bundler cuts MUI into a chunk per set of routes sharing a component: a wizard
            // step fetched 70 scripts, and at ~0.35 KB of response headers each that was 25 KB of its 200 KB
            // budget. The MUI modules that 20 or more chunks use travel as one script instead (decision 0017),
            // without what they import (Preact, Emotion): pulled in with them, the entry itself needed that
            // script, and the landing page, which draws no MUI, fetched and ran 35 KB of it (decision 0020).
            {
              name: 'mui',
              test: /[\\/]node_modules[\\/]@mui[\\/]/,
              minShareCount: 20,
              includeDependenciesRecursively: false,
            },
            // The entry's small local stores (drafts, intake token, receipt session, login state) in one chunk,
            // not three: Rolldown splits out modules the lazy pages share with the entry, and each file a first
            // visit fetches costs its headers. Only these modules (no dependencies), all in the entry's static
            // imports, so no route loads more than before.
            // The small plain parts of the pages that draw without MUI (/login, /report, the wizard's first
            // step): each was a file of its own, under 2 KB, and each file a first visit fetches costs its
            // headers and a request started on the main thread while the app takes the page over (R-PERF-3).
            // The landing page uses none of them.
            {
              name: 'plain-parts',
              test: /\/src\/(components\/(page-shell|confirm-dialog|form\/(form-alert|plain-text-input|step-section|step-errors|plain-draft-fields))\.tsx?|lib\/(lazy-themed|use-opened-once)\.tsx?)$/,
              includeDependenciesRecursively: false,
            },
            {
              name: 'local-state',
              test: /\/src\/(lib\/(draft-storage|login-state)|stores\/(draft-store|report-form|report-form-store|intake-token|receipt-session))\.ts$/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
}));
