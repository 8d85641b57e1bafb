import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { paths } from './src/config/paths.ts';

/**
 * `.vite/routes.json`: every address pattern the client router has a page for (src/config/paths.ts), for the
 * server to answer any other address 404 with the app's not-found page (apps/api/src/prerendered-pages.ts).
 */
const routeList: Plugin = {
  name: 'ansim-route-list',
  generateBundle() {
    this.emitFile({
      type: 'asset',
      fileName: '.vite/routes.json',
      source: `${JSON.stringify(Object.values(paths).map((route) => route.path))}\n`,
    });
  },
};

export default defineConfig(({ isSsrBuild }) => ({
  plugins: isSsrBuild ? [react()] : [react(), routeList],
  // The server bundle (the prerender, decision 0020) carries every dependency inside it: one copy of React for
  // the page and for react-dom/server, and nothing to resolve from node_modules when the API loads it.
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
      // The prerender bundle is one file: the server imports it under a new URL after each rebuild
      // (apps/api/src/prerendered-pages.ts), and a chunk of it importing the entry back by its plain URL would
      // reach another copy of React Router than the page renders with.
      output: isSsrBuild
        ? { codeSplitting: false }
        : {
            codeSplitting: {
              groups: [
                // Left to itself the bundler cuts MUI into a chunk per set of routes sharing a component: a wizard
                // step fetched 70 scripts, and at ~0.35 KB of response headers each that was 25 KB of its 200 KB
                // budget. The MUI modules that 20 or more chunks use travel as one script instead (decision 0017),
                // without what they import (React, Emotion): pulled in with them, the entry itself needed that
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
