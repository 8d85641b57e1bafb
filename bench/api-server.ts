// The API as the standalone measuring scripts run it: PostgreSQL (a database of its own, created and dropped
// around the run), production mode, warnings only, throttles lifted where a script needs many requests from one
// address. The same settings bench/run.ts starts its server with.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, startProcess, stopProcess, waitForHttp } from './lib.ts';
import { BENCH_ENCRYPTION_KEY, BENCH_SECRET_KEY } from './scenarios.ts';

export const BENCH_CSRF = 'benchmark-csrf-token-benchmark-csrf-token-0';

const serverUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

export interface RunningApi {
  base: string;
  databaseUrl: string;
  sql<T extends pg.QueryResultRow>(text: string, params?: unknown[]): Promise<T[]>;
}

/** Runs `body` against a fresh API process on a fresh database; `env` adds to or overrides the settings. */
export async function withApi<T>(
  env: Record<string, string>,
  body: (api: RunningApi) => Promise<T>,
): Promise<T> {
  const name = `ansim_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startProcess('apps/api/src/server.ts', {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    SECRET_KEY: BENCH_SECRET_KEY,
    ENCRYPTION_KEY: BENCH_ENCRYPTION_KEY,
    LOG_LEVEL: 'warn',
    PUBLIC_URL: base,
    ALTCHA_MAX_NUMBER: '100',
    MAIL_POLL_MS: '600000',
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-bench-data-')),
    ...env,
  });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    await waitForHttp(`${base}/api/ready`);
    return await body({
      base,
      databaseUrl,
      sql: async (text, params = []) => (await pool.query(text, params)).rows,
    });
  } finally {
    await pool.end();
    await stopProcess(server);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** A JSON request with the CSRF pair a browser would hold. */
export function apiRequest(base: string, method: string, pathname: string, body?: unknown) {
  return fetch(`${base}${pathname}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-csrftoken': BENCH_CSRF,
      cookie: `csrftoken=${BENCH_CSRF}`,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
