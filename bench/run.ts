// `npm run bench`: every scenario in one run, each beside a baseline measured in the same run, because this
// machine is shared and noisy and only same-run ratios mean something. Writes bench/results/latest.json, a
// timestamped copy, and bench/README.md rendered from them. `--only=http,report,manager,stats,web,lighthouse`
// runs a subset, which replaces those sections in latest.json and the README, each marked with the run that
// measured it. BENCH_STATS_REPORTS changes the 1,000,000 cases of the statistics section.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type autocannon from 'autocannon';
import pg from 'pg';
import {
  freePort,
  httpClient,
  type LatencyMeasurement,
  type Measurement,
  measure,
  probeLatency,
  repoRoot,
  runClosedLoop,
  runInterleaved,
  startProcess,
  stopProcess,
  waitForHttp,
} from './lib.ts';
import { type BenchResults, type Metric, type Row, renderMarkdown } from './results.ts';
import {
  BENCH_ENCRYPTION_KEY,
  BENCH_SECRET_KEY,
  cursorForPage,
  directDatabase,
  directList,
  directOperatorCompanies,
  directSessionCheck,
  directStats,
  directSubmit,
  directSubmitEach,
  explainList,
  explainStats,
  rawSubmit,
  seedManyReports,
  seedStatsReports,
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
const SECTIONS = ['http', 'report', 'manager', 'stats', 'web', 'lighthouse'] as const;
type Section = (typeof SECTIONS)[number];
const MANAGER_REPORTS = 100_000;
const LIST_CALLERS = 10;
const STATS_REPORTS = Number(process.env.BENCH_STATS_REPORTS ?? 1_000_000);
const STATS_CALLERS = 10;
const SPREAD_COMPANIES = 100;
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

/**
 * Sessions for accounts whose routes require a second factor (handlers, the operator; R-ACC-7): each logs in
 * first, while it has none, then gets a placeholder passkey row, so the routes answer without a WebAuthn
 * exchange the benchmark does not measure.
 */
async function loginWithSecondFactor(base: string, databaseUrl: string, emails: string[]): Promise<string[]> {
  const sessions: string[] = [];
  for (const email of emails) sessions.push(await login(base, email));
  await sql(
    databaseUrl,
    `INSERT INTO mfa_passkeys (user_id, credential_id, public_key, name)
     SELECT id, 'bench-placeholder-' || id, 'none', 'bench' FROM users WHERE email = ANY($1)`,
    [emails],
  );
  return sessions;
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
  const seeding: NonNullable<BenchResults['seeding']> = [];
  const plans: NonNullable<BenchResults['plans']> = [];
  let routesJs: BenchResults['initialJs'] = { budgetBytes: 0, landingWithinBudget: false, routes: [] };
  let lighthouse: BenchResults['lighthouse'] = { preset: '', chromium: '', pages: [] };
  let explain: BenchResults['explain'];

  let web: ReturnType<typeof buildWeb> | undefined;
  if (sections.has('web') || sections.has('lighthouse')) {
    log('building the web client');
    web = buildWeb();
    if (sections.has('web')) routesJs = initialJs(web.dist);
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
        RECEIPT_LIMIT_PER_IP_PER_HOUR: '1000000',
        INTAKE_LOOKUPS_PER_IP_PER_HOUR: '1000000',
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
        if (sections.has('report')) {
          await reportScenarios(base, databaseUrl, direct, email, reporterUser, rows, seeding);
        }
        if (sections.has('manager')) {
          database.managerReports = await managerScenarios(
            base,
            databaseUrl,
            direct,
            largeCompany,
            rows,
            seeding,
            plans,
          );
        }
        if (sections.has('stats')) {
          const statsCompany = await createCompany(databaseUrl, '통계 주식회사', 'stats.example');
          explain = await statsScenarios(base, databaseUrl, direct, statsCompany, rows, seeding);
        }
        if (sections.has('lighthouse')) {
          log(`Lighthouse, ${LIGHTHOUSE_RUNS} run(s) per page`);
          const session = (await login(base, email)).split('=');
          const loginExpires = String(Math.floor(Date.now() / 1000) + 3600);
          lighthouse = await runLighthouse(
            base,
            [
              { name: 'landing', path: '/' },
              { name: 'login', path: '/login' },
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
    seeding,
    plans,
    initialJs: routesJs,
    lighthouse,
    explain,
  };
  // A scenario that never once succeeded measured nothing: refuse to publish it as a figure.
  const empty = rows.filter((row) => row.requests === 0);
  if (empty.length > 0) {
    throw new Error(`no successful request in: ${empty.map((row) => row.name).join('; ')}`);
  }
  const outDir = path.join(repoRoot, 'bench', 'results');
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(
    path.join(outDir, `bench-${results.at.replace(/[:.]/g, '-')}.json`),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  // A partial run replaces the sections it measured in latest.json and keeps the others from their own run,
  // each section saying when it was measured, so one section can be re-measured without rerunning the rest.
  const latestPath = path.join(outDir, 'latest.json');
  const published =
    sections.size === SECTIONS.length || !fs.existsSync(latestPath)
      ? results
      : mergeSections(JSON.parse(fs.readFileSync(latestPath, 'utf8')) as BenchResults, results, sections);
  const markdown = renderMarkdown(published);
  console.info(`\n${markdown}`);
  fs.writeFileSync(latestPath, `${JSON.stringify(published, null, 2)}\n`);
  fs.writeFileSync(path.join(repoRoot, 'bench', 'README.md'), markdown);
  log(
    `written: bench/results/latest.json, bench/README.md${sections.size < SECTIONS.length ? ' (merged)' : ''}`,
  );
}

const ROW_SECTIONS: Record<Section, Row['section'][]> = {
  http: ['throughput', 'health'],
  report: ['report'],
  manager: ['manager'],
  stats: ['stats'],
  web: [],
  lighthouse: [],
};

/** The published results with the measured sections of a partial run put in place of the old ones. */
function mergeSections(previous: BenchResults, partial: BenchResults, sections: Set<Section>): BenchResults {
  const replaced = new Set([...sections].flatMap((section) => ROW_SECTIONS[section]));
  const measuredAt = { ...(previous.measuredAt ?? {}) };
  const run = {
    at: partial.at,
    loadAverageStart: partial.machine.loadAverageStart,
    loadAverageEnd: partial.machine.loadAverageEnd,
  };
  for (const section of replaced) measuredAt[section] = run;
  return {
    ...previous,
    measuredAt,
    database: {
      ...previous.database,
      server: partial.database.server || previous.database.server,
      ...(sections.has('manager') ? { managerReports: partial.database.managerReports } : {}),
    },
    rows: [...previous.rows.filter((row) => !replaced.has(row.section)), ...partial.rows],
    seeding: [
      ...(previous.seeding ?? []).filter((seed) => !replaced.has(seed.section)),
      ...(partial.seeding ?? []),
    ],
    plans: sections.has('manager') ? partial.plans : previous.plans,
    // The statistics at 1,000,000 cases take their own seeding: a run of that section alone replaces them.
    explain: sections.has('stats') ? partial.explain : previous.explain,
    ...(sections.has('web') ? { initialJs: partial.initialJs } : {}),
    ...(sections.has('lighthouse') ? { lighthouse: { ...partial.lighthouse, measured: run } } : {}),
  };
}

type Direct = Awaited<ReturnType<typeof directDatabase>>;

/** The login and health figures (R-ACC-4, R-OPS-7), and the health check while 200 logins run at once. */
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

/** A reporter in each of `count` new companies, logged in through the API: their session cookies and users. */
async function reportersInManyCompanies(
  base: string,
  databaseUrl: string,
  templateEmail: string,
  count: number,
) {
  // Registered in SQL with the template user's password hash (the bench measures submission, not sign-up);
  // each then logs in through the API, as a reporter would.
  await sql(
    databaseUrl,
    `WITH made AS (
       INSERT INTO companies (name) SELECT '분산 주식회사 ' || i FROM generate_series(1, $1::int) AS i RETURNING id, name
     )
     INSERT INTO users (email, password_hash, name, company_id, email_confirmed_at)
     SELECT 'reporter' || split_part(made.name, ' ', 3) || '@spread.example', u.password_hash, '분산', made.id, now()
     FROM made, users u WHERE u.email = $2`,
    [count, templateEmail],
  );
  const emails = Array.from({ length: count }, (_, i) => `reporter${i + 1}@spread.example`);
  const sessions: string[] = [];
  for (let i = 0; i < emails.length; i += 10)
    sessions.push(...(await Promise.all(emails.slice(i, i + 10).map((email) => login(base, email)))));
  const users = await Promise.all(
    emails.map(async (email) => {
      const row = await userRow(databaseUrl, email);
      return { id: row.id, email, name: row.name, role: row.role, companyId: row.company_id };
    }),
  );
  return { sessions, users };
}

/**
 * R-PERF-6: the submission through the API beside the same transaction run directly (submitReport())
 * and beside its bare statements on a pg pool (the database's ceiling), in one company, whose case counter
 * row serialises every submission, and spread over 100 companies, as real traffic is.
 */
async function reportScenarios(
  base: string,
  databaseUrl: string,
  direct: Direct,
  email: string,
  reporter: Parameters<typeof directSubmit>[1],
  rows: Row[],
  seeding: NonNullable<BenchResults['seeding']>,
) {
  const session = await login(base, email);
  const form = JSON.stringify(tenKilobyteForm());
  const size = (Buffer.byteLength(form) / 1024).toFixed(1);
  // Four rounds of 2 s a side, each slice led by 0.25 s unmeasured: the 8 s of figures a side the bench took
  // before, in turns (runInterleaved), after the same 1 s of warm-up.
  const loop = { concurrency: 50, rounds: 4, sliceMs: 2000, leadMs: 250, warmupMs: 1000 };
  const client = httpClient(base, loop.concurrency);
  const post = (sessions: string[]) => {
    let turn = 0;
    return async () => {
      const status = await client.request(
        'POST',
        '/api/v1/report/',
        {
          'content-type': 'application/json',
          'x-csrftoken': CSRF,
          cookie: `csrftoken=${CSRF}; ${sessions[turn++ % sessions.length]}`,
        },
        form,
      );
      if (status !== 201) throw new Error(String(status));
    };
  };

  // The API, submitReport() directly and the raw SQL of one setting (one company, or many), measured in turns.
  const inTurns = async (
    setting: string,
    api: () => Promise<void>,
    domain: () => Promise<void>,
    rawSql: () => Promise<void>,
  ) =>
    (
      await runInterleaved(
        [
          { name: `POST /api/v1/report/ (${size} KB form), ${setting}, 50 concurrent`, task: api },
          { name: `submitReport() direct, ${setting}, pool 10, 50 concurrent`, task: domain },
          { name: `raw SQL of a submission (ceiling), ${setting}, pg pool 10, 50 concurrent`, task: rawSql },
        ],
        loop,
      )
    ).map((measured) => fromLoop('report', measured)) as [Row, Row, Row];

  log(`POST /api/v1/report/ (${size} KB), one company, beside submitReport() and the raw SQL, in turns`);
  const raw = await rawSubmit(databaseUrl, direct.database, [reporter]);
  const [viaApi, viaSql, viaRaw] = await inTurns(
    'one company',
    post([session]),
    await directSubmit(direct, reporter),
    raw.task,
  );
  await raw.close();
  rows.push(
    compare(compare(viaApi, viaRaw, 'reqPerSec'), viaSql, 'reqPerSec'),
    compare(viaSql, viaRaw, 'reqPerSec'),
    viaRaw,
  );

  log(`${SPREAD_COMPANIES} companies with a reporter each`);
  const setupStart = Date.now();
  const spread = await reportersInManyCompanies(base, databaseUrl, email, SPREAD_COMPANIES);
  seeding.push({
    section: 'report',
    name: `${SPREAD_COMPANIES} companies, a reporter in each, each logged in through the API`,
    rows: SPREAD_COMPANIES,
    seconds: (Date.now() - setupStart) / 1000,
  });
  log(
    `POST /api/v1/report/ spread over ${SPREAD_COMPANIES} companies, beside submitReport() and the raw SQL`,
  );
  const spreadRawPool = await rawSubmit(databaseUrl, direct.database, spread.users);
  const [spreadApi, spreadSql, spreadRaw] = await inTurns(
    `${SPREAD_COMPANIES} companies`,
    post(spread.sessions),
    await directSubmitEach(direct, spread.users),
    spreadRawPool.task,
  );
  await spreadRawPool.close();
  rows.push(
    compare(compare(spreadApi, spreadRaw, 'reqPerSec'), viaApi, 'reqPerSec'),
    compare(spreadSql, spreadRaw, 'reqPerSec'),
    spreadRaw,
  );
  client.close();
}

/**
 * docs/requirements.md R-PERF-4: every filter and sort of the manager's list over 100,000 cases of one company, and the
 * statistics, each through the API beside the same domain function (same SQL) run directly; then
 * `EXPLAIN (ANALYZE, BUFFERS)` of each list query for bench/README.md.
 */
async function managerScenarios(
  base: string,
  databaseUrl: string,
  direct: Direct,
  companyId: string,
  rows: Row[],
  seeding: NonNullable<BenchResults['seeding']>,
  plans: NonNullable<BenchResults['plans']>,
): Promise<number> {
  // Ten concurrent callers are ten managers, as in an HR team: one person's reads of the list fold into one
  // audit row (R-CASE-11), so ten callers sharing one account would queue on that row's lock, which no team does.
  const managerEmails = Array.from(
    { length: LIST_CALLERS },
    (_, index) => `manager${index + 1}@large.example`,
  );
  const memberEmail = 'member@large.example';
  for (const email of managerEmails) await createConfirmedUser(base, databaseUrl, email);
  await createConfirmedUser(base, databaseUrl, memberEmail);
  await sql(databaseUrl, `UPDATE users SET role = 'manager' WHERE email = ANY($1)`, [managerEmails]);
  const template = await api(base, 'POST', '/api/v1/report/', typicalForm(), await login(base, memberEmail));
  if (template.status !== 201) throw new Error(`template report failed: ${template.status}`);
  const { id: templateId } = (await template.json()) as { id: string };
  log(`seeding ${MANAGER_REPORTS.toLocaleString('en')} reports`);
  const seedStart = Date.now();
  const count = await seedManyReports(databaseUrl, templateId, MANAGER_REPORTS, direct.database);
  const seconds = (Date.now() - seedStart) / 1000;
  log(`seeded ${count} reports in ${seconds.toFixed(1)} s`);
  seeding.push({
    section: 'manager',
    name: 'cases of one company (INSERT … SELECT from arrays of ids and sealed accused names made in the bench, in batches of 10,000, statistics trigger off, then report_stats_rebuild() and VACUUM ANALYZE)',
    rows: count,
    seconds,
  });

  const managerSessions = await loginWithSecondFactor(base, databaseUrl, managerEmails);
  const managerIds = await Promise.all(
    managerEmails.map(async (email) => (await userRow(databaseUrl, email)).id),
  );
  const client = httpClient(base, LIST_CALLERS);
  const managerGet = (pathname: string) => async (caller: number) => {
    const cookie = managerSessions[caller % managerSessions.length]!;
    const status = await client.request('GET', pathname, { cookie });
    if (status !== 200) throw new Error(String(status));
  };
  const page500 = await cursorForPage(direct, companyId, {}, 500);
  const lists: [label: string, params: Record<string, string>][] = [
    ['page 1 (newest first)', {}],
    ['page 500 by its cursor (the next link)', { page: '500', after: page500 }],
    ['page 500 by its number alone (OFFSET)', { page: '500' }],
    ['status = investigating', { status: 'investigating' }],
    ['type = formal', { type: 'formal' }],
    ['one month (date_from, date_to)', { date_from: monthAgo(2), date_to: monthAgo(1) }],
    ['overdue', { overdue: 'true' }],
    // Seeded references are the row number in base32: this prefix is 32 of them, as 2026-00012 was 10.
    ['case number prefix (2026-0000C)', { q: '2026-0000C' }],
    // The accused name is sealed; the search goes through its keyed blind index (decision 0004). Every seeded
    // case names the same person, so this is the worst case: the search matches all of them.
    ['accused name every case names', { q: '박행위' }],
    // The usual search: a name no case (or a few) names.
    ['accused name no case names', { q: '김아무' }],
    ['sort oldest first', { sort: 'created_at' }],
    ['sort recently changed', { sort: '-updated_at' }],
    ['sort least recently changed', { sort: 'updated_at' }],
    ['sort case number ascending', { sort: 'case_number' }],
    ['sort case number descending', { sort: '-case_number' }],
    ['sort feedback deadline', { sort: 'feedback_due_at' }],
    ['status and sort by feedback deadline', { status: 'received', sort: 'feedback_due_at' }],
    ['exact count asked (count=exact)', { count: 'exact' }],
  ];
  const loop = { concurrency: LIST_CALLERS, durationMs: 5000, warmupMs: 1000 };
  for (const [label, params] of lists) {
    log(`manager list: ${label}`);
    const query = new URLSearchParams(params).toString();
    const viaHttp = fromLoop(
      'manager',
      await runClosedLoop(`list, ${label} — API`, managerGet(`/api/v1/manager/report/?${query}`), loop),
    );
    const viaDomain = fromLoop(
      'manager',
      await runClosedLoop(
        `list, ${label} — same SQL direct`,
        directList(direct, companyId, managerIds, params),
        loop,
      ),
    );
    rows.push(compare(viaHttp, viaDomain, 'p50'), viaDomain);
    const plan = await explainList(direct, companyId, params);
    plans.push({ name: label, query, page: plan.page });
  }
  client.close();
  // The statistics have their own section, at 1,000,000 cases (`--only=stats`).
  return count;
}

/** R-PERF-5: the statistics over 1,000,000 cases of one company, beside the same SQL run directly. */
async function statsScenarios(
  base: string,
  databaseUrl: string,
  direct: Direct,
  companyId: string,
  rows: Row[],
  seeding: NonNullable<BenchResults['seeding']>,
): Promise<{ name: string; plan: string }[]> {
  const managerEmail = 'manager@stats.example';
  await createConfirmedUser(base, databaseUrl, managerEmail);
  await sql(databaseUrl, `UPDATE users SET role = 'manager' WHERE email = $1`, [managerEmail]);
  const [managerRow] = await sql<{ id: string }>(databaseUrl, 'SELECT id FROM users WHERE email = $1', [
    managerEmail,
  ]);
  const viewer = { companyId, userId: managerRow!.id };
  log(`seeding ${STATS_REPORTS.toLocaleString('en')} reports for the statistics`);
  const seedStart = Date.now();
  const count = await seedStatsReports(databaseUrl, companyId, STATS_REPORTS);
  const seedSeconds = (Date.now() - seedStart) / 1000;
  log(`seeded ${count} reports in ${seedSeconds.toFixed(1)} s`);
  seeding.push({
    section: 'stats',
    name:
      'cases of one company (INSERT … SELECT generate_series with the statistics triggers off, then ' +
      'report_stats_rebuild() and VACUUM ANALYZE)',
    rows: count,
    seconds: seedSeconds,
  });
  const [session] = await loginWithSecondFactor(base, databaseUrl, [managerEmail]);
  const client = httpClient(base, STATS_CALLERS);
  const get = (pathname: string, cookie: string) => async () => {
    const status = await client.request('GET', pathname, { cookie });
    if (status !== 200) throw new Error(String(status));
  };
  const loop = { concurrency: STATS_CALLERS, durationMs: 6000, warmupMs: 1000 };
  const measured = async (name: string, task: () => Promise<void>) =>
    fromLoop('stats', await runClosedLoop(name, task, loop));
  const label = `statistics, ${count.toLocaleString('en')} cases`;
  log(label);
  const viaHttp = await measured(`${label} — API`, get('/api/v1/manager/stats/reports', session!));
  const viaDomain = await measured(`${label} — same SQL direct`, directStats(direct, viewer));
  rows.push(compare(viaHttp, viaDomain, 'p50'), viaDomain);

  // The operator's console: every company of the platform with its case counts.
  const operatorEmail = 'operator@platform.bench-operator.example';
  await createConfirmedUser(base, databaseUrl, operatorEmail);
  await sql(databaseUrl, `UPDATE users SET role = 'operator', company_id = NULL WHERE email = $1`, [
    operatorEmail,
  ]);
  const [operatorSession] = await loginWithSecondFactor(base, databaseUrl, [operatorEmail]);
  const [platform] = await sql<{ companies: number; cases: number }>(
    databaseUrl,
    'SELECT (SELECT count(*)::int FROM companies) AS companies, (SELECT count(*)::int FROM reports) AS cases',
  );
  const operatorLabel = `operator's company list, ${platform!.companies} companies, ${platform!.cases.toLocaleString('en')} cases`;
  log(operatorLabel);
  const operatorApi = await measured(
    `${operatorLabel} — API`,
    get('/api/v1/operator/companies', operatorSession!),
  );
  const operatorDirect = await measured(
    `${operatorLabel} — same SQL direct`,
    directOperatorCompanies(direct),
  );
  const countedBefore = await measured(
    `${operatorLabel} — every case counted per company (what it read before), direct`,
    () =>
      direct.database
        .query(
          `SELECT company_id, count(*), count(*) FILTER (WHERE status IN ('received', 'investigating', 'action_taken'))
             FROM reports GROUP BY company_id`,
        )
        .then(() => undefined),
  );
  rows.push(
    compare(compare(operatorApi, operatorDirect, 'p50'), countedBefore, 'p50'),
    operatorDirect,
    countedBefore,
  );
  client.close();
  return explainStats(databaseUrl, viewer);
}

/** The first day of the month `months` ago (Korean calendar), as YYYY-MM-DD. */
function monthAgo(months: number): string {
  const seoul = new Date(Date.now() + 9 * 3600 * 1000);
  return new Date(Date.UTC(seoul.getUTCFullYear(), seoul.getUTCMonth() - months, 1))
    .toISOString()
    .slice(0, 10);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
