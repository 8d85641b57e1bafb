// `npm run bench`: every scenario in one run, each beside a baseline measured in the same run, because this
// machine is shared and noisy and only same-run ratios mean something. Writes bench/results/latest.json, a
// timestamped copy, and bench/README.md rendered from them. `--only=http,report,manager,web` runs a subset
// (then only the timestamped file is written, so the published figures always come from a whole run).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type autocannon from 'autocannon';
import pg from 'pg';
import {
  freePort,
  type LatencyMeasurement,
  type Measurement,
  measure,
  probeLatency,
  repoRoot,
  runClosedLoop,
  startProcess,
  stopProcess,
  waitForHttp,
} from './lib.ts';
import { type BenchResults, type Metric, type Row, renderMarkdown } from './results.ts';
import {
  BENCH_ENCRYPTION_KEY,
  BENCH_SECRET_KEY,
  directDatabase,
  directList,
  directSessionCheck,
  directStats,
  directSubmit,
  seedManyReports,
  tenKilobyteForm,
  typicalForm,
} from './scenarios.ts';
import { buildWeb, initialJs, runLighthouse } from './web.ts';

const serverUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const CSRF = 'benchmark-csrf-token-benchmark-csrf-token-0';
const PASSWORD = '벤치마크-비밀번호-2026!';
const SECTIONS = ['http', 'report', 'manager', 'web'] as const;
type Section = (typeof SECTIONS)[number];
const MANAGER_REPORTS = 100_000;
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

function selectedSections(): Set<Section> {
  const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
  if (!only) return new Set(SECTIONS);
  const chosen = only.split(',').map((name) => name.trim());
  for (const name of chosen) {
    if (!(SECTIONS as readonly string[]).includes(name))
      throw new Error(`Unknown section "${name}"; choose from ${SECTIONS.join(', ')}`);
  }
  return new Set(chosen as Section[]);
}

async function withDatabase<T>(run: (url: string) => Promise<T>): Promise<T> {
  const name = `ansim_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function api(base: string, method: string, pathname: string, body?: unknown, cookie = '') {
  return fetch(`${base}${pathname}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-csrftoken': CSRF,
      cookie: `csrftoken=${CSRF}${cookie ? `; ${cookie}` : ''}`,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function sql<T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

async function createConfirmedUser(base: string, databaseUrl: string, email: string): Promise<void> {
  const created = await api(base, 'POST', '/api/v1/user/', { email, password: PASSWORD, name: '벤치' });
  if (created.status !== 201) throw new Error(`register failed: ${created.status}`);
  // The confirmation link travels in a sealed outbox row (decision 0004); the benchmark does not measure
  // confirmation, so it confirms the address directly and places the user by its domain, as confirming does.
  const confirmed = await sql<{ id: string }>(
    databaseUrl,
    `UPDATE users SET email_confirmed_at = now(),
            company_id = (SELECT company_id FROM company_domains WHERE domain = split_part($1, '@', 2))
      WHERE email = $1 RETURNING id`,
    [email],
  );
  if (confirmed.length !== 1) throw new Error(`confirm failed for ${email}`);
}

/** ALTCHA solutions, each good for one login (replays are refused), solved a few at a time. */
async function solvedCaptchas(base: string, count: number): Promise<string[]> {
  const solveOne = async () => {
    const challenge = await (await fetch(`${base}/api/v1/captcha/challenge`)).json();
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  };
  const solutions: string[] = [];
  while (solutions.length < count) {
    const batch = Math.min(16, count - solutions.length);
    solutions.push(...(await Promise.all(Array.from({ length: batch }, solveOne))));
  }
  return solutions;
}

/** Logs in and returns the `sessionid=…` cookie pair. */
async function login(base: string, email: string): Promise<string> {
  const [captcha] = await solvedCaptchas(base, 1);
  const response = await api(base, 'POST', '/api/v1/token/', { email, password: PASSWORD, captcha });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('sessionid='));
  if (response.status !== 200 || !cookie) throw new Error(`login failed: ${response.status}`);
  return cookie.split(';')[0]!;
}

/** autocannon options for logins, each request with a captcha solution of its own. */
function loginRequests(email: string, captchas: string[]): Partial<autocannon.Options> {
  let next = 0;
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrftoken': CSRF, cookie: `csrftoken=${CSRF}` },
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ email, password: PASSWORD, captcha: captchas[next++ % captchas.length] }),
        }),
      },
    ],
  };
}

async function createCompany(url: string, name: string, domain: string): Promise<string> {
  const [company] = await sql<{ id: string }>(url, 'INSERT INTO companies (name) VALUES ($1) RETURNING id', [
    name,
  ]);
  await sql(url, 'INSERT INTO company_domains (domain, company_id) VALUES ($1, $2)', [domain, company!.id]);
  return company!.id;
}

async function userRow(url: string, email: string) {
  const [row] = await sql<{ id: string; name: string; company_id: string; role: 'member' | 'manager' }>(
    url,
    'SELECT id, name, company_id, role FROM users WHERE email = $1',
    [email],
  );
  return row!;
}

function fromAutocannon(section: Row['section'], m: Measurement): Row {
  return {
    section,
    name: m.name,
    reqPerSec: m.reqPerSec,
    p50: m.p50,
    p99: m.p99,
    requests: m.requests,
    errors: m.errors + m.non2xx,
  };
}

function fromLoop(section: Row['section'], m: LatencyMeasurement): Row {
  return {
    section,
    name: m.name,
    reqPerSec: m.reqPerSec,
    p50: m.p50,
    p95: m.p95,
    p99: m.p99,
    requests: m.requests,
    errors: m.errors,
  };
}

/** Adds this row's ratio to a baseline measured in the same run (this ÷ baseline). */
function compare(row: Row, baseline: Row, metric: Metric): Row {
  const ratio = baseline[metric] ? (row[metric] ?? 0) / baseline[metric]! : 0;
  const comparison = { name: baseline.name, metric, ratio: Number(ratio.toPrecision(3)) };
  return { ...row, baselines: [...(row.baselines ?? []), comparison] };
}

function log(message: string): void {
  console.info(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

async function main(): Promise<void> {
  const sections = selectedSections();
  const startedAt = Date.now();
  const loadAverageStart = os.loadavg();
  const rows: Row[] = [];
  let database: BenchResults['database'] = { server: '', managerReports: 0 };
  let routesJs: BenchResults['initialJs'] = { budgetBytes: 0, landingWithinBudget: false, routes: [] };
  let lighthouse: BenchResults['lighthouse'] = { preset: '', chromium: '', pages: [] };

  let web: ReturnType<typeof buildWeb> | undefined;
  if (sections.has('web')) {
    log('building the web client');
    web = buildWeb();
    routesJs = initialJs(web.dist);
  }

  try {
    let ceiling: Row | undefined;
    if (sections.has('http')) {
      log('bare Fastify hello-world');
      const helloPort = await freePort();
      const hello = startProcess('bench/hello-server.ts', { PORT: String(helloPort) });
      try {
        await waitForHttp(`http://127.0.0.1:${helloPort}/`);
        ceiling = fromAutocannon(
          'throughput',
          await measure('bare Fastify hello-world (ceiling)', { url: `http://127.0.0.1:${helloPort}/` }),
        );
      } finally {
        await stopProcess(hello);
      }
      rows.push(ceiling);
    }

    await withDatabase(async (databaseUrl) => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      // The server as it runs in production: PostgreSQL, production mode, warnings only (to stdout, which
      // the bench discards), the default pool of 10 connections. Throttles are lifted: the bench logs in
      // thousands of times from one address, which is exactly what they exist to stop.
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
        LOGIN_LIMIT_PER_IP_PER_MINUTE: '1000000',
        LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: '1000000',
        // Every benchmark user registers from this one machine.
        ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '1000000',
        MAIL_POLL_MS: '600000',
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-bench-data-')),
        ...(web ? { WEB_DIST: web.dist } : {}),
      });
      const direct = await directDatabase(databaseUrl);
      try {
        await waitForHttp(`${base}/api/ready`);
        const [version] = await sql<{ server_version: string }>(databaseUrl, 'SHOW server_version');
        database = { server: `PostgreSQL ${version?.server_version ?? '?'}`, managerReports: 0 };
        await createCompany(databaseUrl, '벤치 주식회사', 'bench.example');
        const largeCompany = await createCompany(databaseUrl, '대규모 주식회사', 'large.example');
        const email = 'bench@bench.example';
        await createConfirmedUser(base, databaseUrl, email);
        const reporter = await userRow(databaseUrl, email);
        const reporterUser = {
          id: reporter.id,
          email,
          name: reporter.name,
          role: reporter.role,
          companyId: reporter.company_id,
        };

        if (sections.has('http')) await httpScenarios(base, direct, email, rows, ceiling!);
        if (sections.has('report')) await reportScenarios(base, direct, email, reporterUser, rows);
        if (sections.has('manager')) {
          database.managerReports = await managerScenarios(base, databaseUrl, direct, largeCompany, rows);
        }
        if (sections.has('web')) {
          log(`Lighthouse, ${LIGHTHOUSE_RUNS} run(s) per page`);
          const session = (await login(base, email)).split('=');
          const loginExpires = String(Math.floor(Date.now() / 1000) + 3600);
          lighthouse = await runLighthouse(
            base,
            [
              { name: 'landing', path: '/' },
              { name: 'wizard: choose a type', path: '/report' },
              {
                name: 'wizard: first step, logged in',
                path: '/report/t/a',
                state: {
                  cookies: [
                    { name: session[0]!, value: session.slice(1).join('=') },
                    { name: 'csrftoken', value: CSRF },
                  ],
                  localStorage: { loginExpires, 'ansim.reportDraft.report_type': JSON.stringify('formal') },
                },
              },
            ],
            LIGHTHOUSE_RUNS,
          );
        }
      } finally {
        await direct.database.close();
        await stopProcess(server);
      }
    });
  } finally {
    web?.cleanup();
  }

  const results: BenchResults = {
    at: new Date().toISOString(),
    durationSeconds: Math.round((Date.now() - startedAt) / 1000),
    node: process.version,
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
      loadAverageStart,
      loadAverageEnd: os.loadavg(),
    },
    database,
    rows,
    initialJs: routesJs,
    lighthouse,
  };
  // A scenario that never once succeeded measured nothing: refuse to publish it as a figure.
  const empty = rows.filter((row) => row.requests === 0);
  if (empty.length > 0) {
    throw new Error(`no successful request in: ${empty.map((row) => row.name).join('; ')}`);
  }
  const markdown = renderMarkdown(results);
  console.info(`\n${markdown}`);
  const outDir = path.join(repoRoot, 'bench', 'results');
  fs.mkdirSync(outDir, { recursive: true });
  const json = `${JSON.stringify(results, null, 2)}\n`;
  fs.writeFileSync(path.join(outDir, `bench-${results.at.replace(/[:.]/g, '-')}.json`), json);
  if (sections.size === SECTIONS.length) {
    fs.writeFileSync(path.join(outDir, 'latest.json'), json);
    fs.writeFileSync(path.join(repoRoot, 'bench', 'README.md'), markdown);
    log('written: bench/results/latest.json, bench/README.md');
  } else {
    log('a partial run: written to bench/results/bench-*.json only');
  }
}

type Direct = Awaited<ReturnType<typeof directDatabase>>;

/** Issue 2's figures, and the health check while 200 logins run at once. */
async function httpScenarios(base: string, direct: Direct, email: string, rows: Row[], ceiling: Row) {
  const session = await login(base, email);
  log('GET /api/v1/token/');
  const check = fromAutocannon(
    'throughput',
    await measure('GET /api/v1/token/ (session check)', {
      url: `${base}/api/v1/token/`,
      headers: { cookie: session },
    }),
  );
  const checkSql = fromLoop(
    'throughput',
    await runClosedLoop(
      'findSession() direct SQL, pool 10, 50 concurrent',
      directSessionCheck(direct, session.slice('sessionid='.length)),
      { concurrency: 50, durationMs: 8000 },
    ),
  );
  rows.push(compare(compare(check, ceiling, 'reqPerSec'), checkSql, 'reqPerSec'), checkSql);

  log('POST /api/v1/token/');
  // More solutions than 8 s of logins can use: argon2id allows a few hundred a second on this machine at most.
  const captchas = await solvedCaptchas(base, 2500);
  const logins = fromAutocannon(
    'throughput',
    await measure('POST /api/v1/token/ (login, argon2id; 20 connections)', {
      url: `${base}/api/v1/token/`,
      connections: 20,
      duration: 8,
      ...loginRequests(email, captchas),
    }),
  );
  if (logins.requests > captchas.length) logins.note = 'captchas reused: the excess answered 400';
  rows.push(compare(logins, ceiling, 'reqPerSec'));

  log('health check idle, then under 200 parallel logins');
  const idle = fromLoop(
    'health',
    await probeLatency('GET /api/health, idle', `${base}/api/health`, { intervalMs: 10, durationMs: 8000 }),
  );
  const burst = await solvedCaptchas(base, 600);
  const loginLoad = measure('POST /api/v1/token/, 600 logins, 200 in parallel', {
    url: `${base}/api/v1/token/`,
    connections: 200,
    amount: burst.length,
    timeout: 60,
    ...loginRequests(email, burst),
  });
  const loaded = fromLoop(
    'health',
    await probeLatency('GET /api/health during 200 parallel logins', `${base}/api/health`, {
      intervalMs: 10,
      until: loginLoad,
    }),
  );
  rows.push(idle, compare(loaded, idle, 'p95'), fromAutocannon('health', await loginLoad));
}

/** Issue 4: the submission through the API beside the same transaction run directly. */
async function reportScenarios(
  base: string,
  direct: Direct,
  email: string,
  reporter: Parameters<typeof directSubmit>[1],
  rows: Row[],
) {
  const session = await login(base, email);
  const form = JSON.stringify(tenKilobyteForm());
  const size = (Buffer.byteLength(form) / 1024).toFixed(1);
  log(`POST /api/v1/report/ (${size} KB)`);
  const viaApi = fromLoop(
    'report',
    await runClosedLoop(
      `POST /api/v1/report/ (${size} KB form), 50 concurrent`,
      async () => {
        const response = await fetch(`${base}/api/v1/report/`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-csrftoken': CSRF,
            cookie: `csrftoken=${CSRF}; ${session}`,
          },
          body: form,
        });
        await response.arrayBuffer();
        if (response.status !== 201) throw new Error(String(response.status));
      },
      { concurrency: 50, durationMs: 8000 },
    ),
  );
  const viaSql = fromLoop(
    'report',
    await runClosedLoop(
      'submitReport() direct SQL, pool 10, 50 concurrent',
      await directSubmit(direct, reporter),
      {
        concurrency: 50,
        durationMs: 8000,
      },
    ),
  );
  rows.push(compare(viaApi, viaSql, 'reqPerSec'), viaSql);
}

/** Issue 5: the manager's list and statistics over 100,000 cases, each beside the same SQL run directly. */
async function managerScenarios(
  base: string,
  databaseUrl: string,
  direct: Direct,
  companyId: string,
  rows: Row[],
): Promise<number> {
  const managerEmail = 'manager@large.example';
  const memberEmail = 'member@large.example';
  await createConfirmedUser(base, databaseUrl, managerEmail);
  await createConfirmedUser(base, databaseUrl, memberEmail);
  await sql(databaseUrl, `UPDATE users SET role = 'manager' WHERE email = $1`, [managerEmail]);
  const template = await api(base, 'POST', '/api/v1/report/', typicalForm(), await login(base, memberEmail));
  if (template.status !== 201) throw new Error(`template report failed: ${template.status}`);
  const { id: templateId } = (await template.json()) as { id: string };
  log(`seeding ${MANAGER_REPORTS.toLocaleString('en')} reports`);
  const seedStart = Date.now();
  const count = await seedManyReports(databaseUrl, templateId, MANAGER_REPORTS, direct.database);
  log(`seeded ${count} reports in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);

  const managerSession = await login(base, managerEmail);
  // Managers need a second factor (issue 11). The session above was opened before it existed; a placeholder
  // passkey row lets the manager routes answer without a WebAuthn exchange the benchmark does not measure.
  await sql(
    databaseUrl,
    `INSERT INTO mfa_passkeys (user_id, credential_id, public_key, name)
     SELECT id, 'bench-placeholder', 'none', 'bench' FROM users WHERE email = $1`,
    [managerEmail],
  );
  const managerGet = (pathname: string) => async () => {
    const response = await fetch(`${base}${pathname}`, { headers: { cookie: managerSession } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(String(response.status));
  };
  const loop = { concurrency: 10, durationMs: 6000 };
  for (const [label, pathname, directTask] of [
    ['manager list page 1', '/api/v1/manager/report/?page=1', directList(direct, companyId, 1)],
    ['manager list page 500', '/api/v1/manager/report/?page=500', directList(direct, companyId, 500)],
    // The accused name is sealed; the search goes through its keyed blind index (decision 0004). Every seeded
    // case names the same person, so this is the worst case: the search matches all of them.
    [
      'manager search by accused name',
      `/api/v1/manager/report/?page=1&q=${encodeURIComponent('박행위')}`,
      directList(direct, companyId, 1, '박행위'),
    ],
    // The usual search: a name no case (or a few) names.
    [
      'manager search by a name no case names',
      `/api/v1/manager/report/?page=1&q=${encodeURIComponent('김아무')}`,
      directList(direct, companyId, 1, '김아무'),
    ],
    ['manager stats', '/api/v1/manager/stats/reports', directStats(direct, companyId)],
  ] as const) {
    log(label);
    const viaHttp = fromLoop('manager', await runClosedLoop(`${label} — API`, managerGet(pathname), loop));
    const viaDomain = fromLoop(
      'manager',
      await runClosedLoop(`${label} — same SQL direct`, directTask, loop),
    );
    rows.push(compare(viaHttp, viaDomain, 'p50'), viaDomain);
  }
  return count;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
