import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
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
    manifest: true,
  },
});
