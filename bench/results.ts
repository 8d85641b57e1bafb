// The shape of one `npm run bench` run and the markdown rendered from it. bench/README.md is written by the
// run from these results alone, so the published table cannot drift from bench/results/latest.json.

export type Metric = 'reqPerSec' | 'p50' | 'p95';

export interface Row {
  /** Which table the row belongs to. */
  section: 'throughput' | 'report' | 'manager' | 'stats' | 'health';
  name: string;
  reqPerSec: number;
  p50: number;
  /** Only where exact percentiles were recorded (closed loops and probes); autocannon reports p50/p99. */
  p95?: number;
  p99: number;
  requests: number;
  /** Network errors, timeouts and non-2xx answers. */
  errors: number;
  /** Baselines measured in the same run and this row's ratio to each (this ÷ baseline) on `metric`. */
  baselines?: Comparison[];
  note?: string;
}

export interface Comparison {
  name: string;
  metric: Metric;
  ratio: number;
}

export interface RouteJs {
  id: string;
  path: string;
  gzipBytes: number;
}

export interface LighthouseRow {
  name: string;
  path: string;
  /** Category scores, 0–100. */
  performance: number;
  accessibility: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  /** JavaScript the browser actually fetched for the page (transfer size, compressed). */
  scriptTransferBytes: number;
  finalUrl: string;
}

/** How long a scenario's data took to make: the seeding time R-PERF-5 asks to see. */
export interface Seeding {
  section: Row['section'];
  name: string;
  rows: number;
  seconds: number;
}

/** `EXPLAIN (ANALYZE, BUFFERS)` of one list request's query: the page, its count a subquery of it. */
export interface ListPlan {
  name: string;
  /** The query string of the request. */
  query: string;
  page: string;
}

/** When a section was measured, if not in the run named at the top (a partial run replaced it). */
export interface SectionRun {
  at: string;
  loadAverageStart: number[];
  loadAverageEnd: number[];
}

export interface BenchResults {
  at: string;
  durationSeconds: number;
  node: string;
  machine: { cpus: number; model: string; loadAverageStart: number[]; loadAverageEnd: number[] };
  database: { server: string; managerReports: number };
  rows: Row[];
  /** `EXPLAIN (ANALYZE, BUFFERS)` of the statistics' queries at 1,000,000 cases (docs/requirements.md R-PERF-5). */
  explain?: { name: string; plan: string }[];
  seeding?: Seeding[];
  plans?: ListPlan[];
  measuredAt?: Partial<Record<Row['section'], SectionRun>>;
  initialJs: { budgetBytes: number; landingWithinBudget: boolean; routes: RouteJs[] };
  /** `measured`: the partial run that measured these pages, when not the run named at the top. */
  lighthouse: {
    preset: string;
    chromium: string;
    pages: LighthouseRow[];
    error?: string;
    measured?: SectionRun;
  };
}

/** The Lighthouse targets of R-PERF-3, for every measured page (mobile preset, simulated throttling). */
export const LIGHTHOUSE_TARGETS = { performance: 95, lcpMs: 1800, accessibility: 100 } as const;

/** "met", or which targets the page missed. */
export function missedTargets(page: LighthouseRow): string {
  const missed = [
    page.performance < LIGHTHOUSE_TARGETS.performance ? 'performance' : '',
    page.lcpMs > LIGHTHOUSE_TARGETS.lcpMs ? 'LCP' : '',
    page.accessibility < LIGHTHOUSE_TARGETS.accessibility ? 'accessibility' : '',
  ].filter(Boolean);
  return missed.length === 0 ? 'met' : `**missed: ${missed.join(', ')}**`;
}

const METRIC_LABEL: Record<Metric, string> = { reqPerSec: 'req/s', p50: 'p50', p95: 'p95' };

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (value: number | undefined) => (value === undefined ? '–' : String(Math.round(value * 10) / 10));

/** "0.42× req/s of bare Fastify hello-world (ceiling)"; a ratio below 0.01 keeps three significant digits. */
export function formatRatio(baseline: Comparison): string {
  const digits = baseline.ratio >= 0.1 ? 2 : 3;
  const value = baseline.ratio < 0.01 ? baseline.ratio.toPrecision(2) : baseline.ratio.toFixed(digits);
  return `${value}× ${METRIC_LABEL[baseline.metric]} of “${baseline.name}”`;
}

function table(header: string[], lines: string[][]): string {
  const escapeCell = (cell: string) => cell.replace(/\|/g, '\\|');
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...lines.map((line) => `| ${line.map(escapeCell).join(' | ')} |`),
  ].join('\n');
}

function rowTable(rows: Row[]): string {
  const referenced = new Set(rows.flatMap((row) => (row.baselines ?? []).map((baseline) => baseline.name)));
  const withP95 = rows.some((row) => row.p95 !== undefined);
  const header = ['scenario', 'req/s', 'p50 ms', ...(withP95 ? ['p95 ms'] : []), 'p99 ms', 'requests'];
  header.push('errors', 'ratio to baseline');
  return table(
    header,
    rows.map((row) => [
      row.note ? `${row.name} (${row.note})` : row.name,
      String(row.reqPerSec),
      ms(row.p50),
      ...(withP95 ? [ms(row.p95)] : []),
      ms(row.p99),
      String(row.requests),
      String(row.errors),
      row.baselines?.length
        ? row.baselines.map(formatRatio).join('; ')
        : referenced.has(row.name)
          ? 'baseline'
          : '–',
    ]),
  );
}

const SECTIONS: { key: Row['section']; title: string; intro: string }[] = [
  {
    key: 'throughput',
    title: 'Throughput (autocannon, 50 connections unless noted)',
    intro:
      'The ceiling is a bare Fastify hello-world on the same machine in the same run; the session check is also ' +
      'compared with its own SQL (the same domain function on a pool of 10, 50 at once, no HTTP).',
  },
  {
    key: 'report',
    title: 'Report submission (R-PERF-6)',
    intro:
      '`POST /api/v1/report/` with a 10 KB formal report, 50 concurrent clients, the server on a pool of 10 ' +
      'PostgreSQL connections, beside `submitReport()` (the same domain function, run directly on a pool of 10) ' +
      'and beside the raw SQL of a submission — the statements `submitReport()` runs in its transaction, sent ' +
      'straight on a `pg` pool of 10 with values sealed once beforehand: the database’s ceiling (target: the API ' +
      'at ≥ 0.7× of it). First in one company, whose case-counter row serialises every submission, then spread ' +
      'over 100 companies (a reporter in each, taken in turn), as most real traffic is. The raw SQL is the ' +
      'statements `submitReport()` sends, in its order, with the very text and statement names it uses ' +
      '(`insertReportStatement`, `numberReportStatement`: the report with its status, measures and the ' +
      'handlers for the conflict-of-interest check; the case number with who is told; docs/decisions/0024) ' +
      'between BEGIN and COMMIT; these companies have no case handler yet, so neither side queues a new-case ' +
      'mail. The three sides of each setting use the same closed-loop harness and are measured in turns ' +
      '(`runInterleaved` in bench/lib.ts): after 1 s of warm-up each, four rounds in which each side runs 2 s, ' +
      'led by 0.25 s unmeasured, the order rotated by one each round, so a machine that slows down or speeds ' +
      'up during the comparison weighs on the three alike; only calls that end inside a slice’s 2 s count. ' +
      'The API is called with the bench’s own HTTP/1.1 client, a keep-alive socket per caller ' +
      '(docs/decisions/0027).',
  },
  {
    key: 'manager',
    title: 'Manager console over 100,000 reports of one company (R-PERF-4)',
    intro:
      'Every filter and sort of the list, each API row followed by the same domain function (same SQL) run ' +
      'directly; 10 concurrent callers each (through the API, ten managers of the company, one each: one ' +
      'person’s repeated list reads fold into one audit row), 20 cases a page. The ratio is API p50 ÷ direct ' +
      'p50. The direct call is the route’s domain function with the same manager, so it writes the same audit ' +
      'row; the API adds HTTP and the session lookup (one statement, the second factor included). The load ' +
      'generator calls the API with the bench’s own HTTP/1.1 client, a keep-alive socket per caller (docs/decisions/0027); client, server and database ' +
      'share the machine’s two cores. Each row runs 1 s unmeasured, then 5 s of figures. Target: every ' +
      'page under 20 ms at p95. A page is read by keyset (the `after` cursor of the `next` link) and the count ' +
      'is exact up to 1,000 matches, then the planner’s estimate (`count_exact: false`) unless `count=exact` is ' +
      'asked; “page 500 by its number alone” is a typed-in address, read with OFFSET over the sort’s index entries, its rows then read by key. The query plans follow the ' +
      'table: their `Execution Time` is what the SQL itself costs, which a loaded machine (see its load average) ' +
      'does not inflate the way it inflates the wall-clock figures, whose p95 is then mostly the CPU queue.',
  },
  {
    key: 'stats',
    title: 'Statistics over 1,000,000 reports of one company, and the operator’s console (R-PERF-5)',
    intro:
      '`GET /api/v1/manager/stats/reports` (default range: the last 12 months) beside `companyStats()` — the same ' +
      'SQL — run directly; 10 concurrent callers each. The ratio is API p50 ÷ direct p50. The counts are read ' +
      "off the summary tables the triggers keep (docs/decisions/0012), in one statement; only today's part of " +
      'the overdue counts touches `reports`, a one-day range of partial indexes of the cases still waiting. ' +
      'The seeded company has 1,000,000 cases over 24 months, 40 % of them open (the same mix as the list ' +
      'bench), so every figure here is independent of the case count; the plan below shows what is read. ' +
      'Then the operator’s console, `GET /api/v1/operator/companies` (every company of the platform with its ' +
      'head counts and its total and open cases, read off the same summary rows), beside ' +
      '`listOperatorCompanies()` run directly and beside the count of every case per company it read before ' +
      '(`count(*)` over `reports` grouped by company, run directly). Each row runs 1 s unmeasured, then 6 s of ' +
      'figures, on the load generator of the other sections.',
  },
  {
    key: 'health',
    title: 'Health check under login load',
    intro:
      '`GET /api/health` probed one request at a time every 10 ms, idle and while 200 parallel logins ' +
      '(argon2id) run; the ratio is loaded p95 ÷ idle p95.',
  },
];

const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');

/** The list's query plans, each request's page query and count query, as the server ran them after the bench. */
function planSection(plans: ListPlan[]): string[] {
  const out = [
    '### Query plans of the list (`EXPLAIN (ANALYZE, BUFFERS)`)',
    '',
    'Taken right after the figures above, on the same data, through the same query builder the route uses ' +
      '(`listQueries` in apps/api/src/domain/manager/list-reports.ts): one statement, the page and, as its ' +
      'InitPlan, the count — capped (at most 1,001 index entries), or exact where `count=exact` is asked. A ' +
      'count past the cap then costs one `EXPLAIN` of the filter for the estimate, remembered for a minute; for ' +
      'that minute the pages of the filter are read without the capped count (the same statement with `NULL` ' +
      'in its place, docs/decisions/0021), so in a closed loop nearly every call runs that cheaper form, not ' +
      'the plan shown here.',
  ];
  for (const plan of plans) {
    out.push(
      '',
      `<details><summary>${plan.name} — <code>?${plan.query.replace(/&/g, '&amp;')}</code></summary>`,
      '',
      '```',
      plan.page,
      '```',
      '',
      '</details>',
    );
  }
  return out;
}

/** bench/README.md, whole, from one run's results. */
export function renderMarkdown(results: BenchResults): string {
  const out: string[] = [];
  out.push('# Benchmarks');
  out.push('');
  out.push(
    '<!-- Generated by `npm run bench` (bench/results.ts renderMarkdown) from bench/results/latest.json. ' +
      'Do not edit by hand: the next run overwrites it. -->',
  );
  out.push('');
  out.push(
    '`npm run bench` starts the API on PostgreSQL (its own database, created and dropped by the run, named by ' +
      '`BENCH_DATABASE_URL` or `TEST_DATABASE_URL`, default `postgres://postgres@127.0.0.1:5432/test`), ' +
      'measures every scenario beside a baseline taken in the same run, and writes ' +
      '`bench/results/latest.json`, a timestamped copy, and this file. The load generator shares the machine ' +
      'with the server and the database, and the machine may be shared with other work: absolute figures move ' +
      'from run to run, the same-run ratios much less. `npm run bench -- --only=http,web` runs a subset ' +
      '(sections: http, report, manager, stats, web, lighthouse): it replaces those sections here and in ' +
      'latest.json, each marked with the run that measured it, and keeps the others.',
  );
  out.push('');
  out.push(
    `Latest run: **${results.at}**, ${results.durationSeconds} s, Node ${results.node}, ` +
      `${results.machine.cpus} × ${results.machine.model}, load average (1/5/15 min) ` +
      `${load(results.machine.loadAverageStart)} at the start and ${load(results.machine.loadAverageEnd)} ` +
      `at the end; ${results.database.server}.`,
  );
  for (const section of SECTIONS) {
    const rows = results.rows.filter((row) => row.section === section.key);
    if (rows.length === 0) continue;
    out.push('', `## ${section.title}`, '', section.intro);
    const run = results.measuredAt?.[section.key];
    if (run) {
      out.push(
        '',
        `Measured in a later partial run: **${run.at}**, load average ${load(run.loadAverageStart)} at the ` +
          `start and ${load(run.loadAverageEnd)} at the end.`,
      );
    }
    const seeds = (results.seeding ?? []).filter((seed) => seed.section === section.key);
    if (seeds.length > 0) {
      out.push(
        '',
        table(
          ['seeding', 'rows', 'seconds'],
          seeds.map((seed) => [seed.name, seed.rows.toLocaleString('en'), seed.seconds.toFixed(1)]),
        ),
      );
    }
    out.push('', rowTable(rows));
    if (section.key === 'manager' && results.plans?.length) out.push('', ...planSection(results.plans));
  }

  if (results.explain && results.explain.length > 0) {
    out.push('', '### `EXPLAIN (ANALYZE, BUFFERS)` of the statistics queries at 1,000,000 cases', '');
    for (const { name, plan } of results.explain) out.push(`**${name}**`, '', '```', plan, '```', '');
  }

  if (results.lighthouse.pages.length > 0 || results.lighthouse.error) {
    out.push('', '## Lighthouse (mobile preset, simulated throttling)', '');
    out.push(
      `${results.lighthouse.chromium}, ${results.lighthouse.preset}. The wizard step is measured logged in, with ` +
        'a report type chosen (session cookie and local draft set before the run). Targets (R-PERF-3): ' +
        `performance ≥ ${LIGHTHOUSE_TARGETS.performance}, LCP ≤ ${LIGHTHOUSE_TARGETS.lcpMs / 1000} s, ` +
        `accessibility ${LIGHTHOUSE_TARGETS.accessibility}. \`--only=lighthouse\` measures these pages alone.`,
    );
    const run = results.lighthouse.measured;
    if (run) {
      out.push(
        '',
        `Measured in a later partial run: **${run.at}**, load average ${load(run.loadAverageStart)} at the ` +
          `start and ${load(run.loadAverageEnd)} at the end.`,
      );
    }
    if (results.lighthouse.error) out.push('', `Lighthouse did not run: ${results.lighthouse.error}`);
    if (results.lighthouse.pages.length > 0) {
      out.push(
        '',
        table(
          [
            'page',
            'performance',
            'accessibility',
            'LCP ms',
            'FCP ms',
            'TBT ms',
            'CLS',
            'JS transferred KB',
            'targets',
          ],
          results.lighthouse.pages.map((page) => [
            `${page.name} (\`${page.path}\`)`,
            String(page.performance),
            String(page.accessibility),
            String(Math.round(page.lcpMs)),
            String(Math.round(page.fcpMs)),
            String(Math.round(page.tbtMs)),
            page.cls.toFixed(3),
            kb(page.scriptTransferBytes),
            missedTargets(page),
          ]),
        ),
      );
    }
  }

  const { initialJs } = results;
  if (initialJs.routes.length > 0) {
    out.push('', '## Initial JavaScript per route (gzip)', '');
    out.push(
      'From the Vite manifest of a fresh build: the entry chunk, the route’s lazy chunks and their static ' +
        `imports (apps/web/scripts/initial-js.mjs). Budget for the landing route: ${kb(initialJs.budgetBytes)} KB — ` +
        `**${initialJs.landingWithinBudget ? 'within budget' : 'OVER BUDGET'}**.`,
    );
    out.push(
      '',
      table(
        ['route', 'path', 'KB gzip', 'share of the landing budget'],
        initialJs.routes.map((route) => [
          route.id,
          `\`${route.path}\``,
          kb(route.gzipBytes),
          `${((route.gzipBytes / initialJs.budgetBytes) * 100).toFixed(0)} %`,
        ]),
      ),
    );
  }
  out.push('');
  return out.join('\n');
}
