// The shape of one `npm run bench` run and the markdown rendered from it. bench/README.md is written by the
// run from these results alone, so the published table cannot drift from bench/results/latest.json.

export type Metric = 'reqPerSec' | 'p50' | 'p95';

export interface Row {
  /** Which table the row belongs to. */
  section: 'throughput' | 'report' | 'manager' | 'health';
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

export interface BenchResults {
  at: string;
  durationSeconds: number;
  node: string;
  machine: { cpus: number; model: string; loadAverageStart: number[]; loadAverageEnd: number[] };
  database: { server: string; managerReports: number };
  rows: Row[];
  initialJs: { budgetBytes: number; landingWithinBudget: boolean; routes: RouteJs[] };
  lighthouse: { preset: string; chromium: string; pages: LighthouseRow[]; error?: string };
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
    title: 'Report submission (issue 4)',
    intro:
      '`POST /api/v1/report/` with a 10 KB formal report, 50 concurrent clients, the server on a pool of 10 ' +
      'PostgreSQL connections, beside `submitReport()` — the same statements in the same transaction — run ' +
      'directly on a pool of 10 with 50 concurrent callers. Both sides use the same closed-loop harness.',
  },
  {
    key: 'manager',
    title: 'Manager console over 100,000 reports of one company (issue 5)',
    intro:
      'Each API row is followed by the same domain function (same SQL) run directly; 10 concurrent callers ' +
      'each. The ratio is API p50 ÷ direct p50.',
  },
  {
    key: 'health',
    title: 'Health check under login load',
    intro:
      '`GET /api/health` probed one request at a time every 10 ms, idle and while 200 parallel logins ' +
      '(argon2id) run; the ratio is loaded p95 ÷ idle p95.',
  },
];

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
      'from run to run, the same-run ratios much less. `node --import tsx bench/run.ts --only=http,web` runs a ' +
      'subset (sections: http, report, manager, web).',
  );
  out.push('');
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
  out.push(
    `Latest run: **${results.at}**, ${results.durationSeconds} s, Node ${results.node}, ` +
      `${results.machine.cpus} × ${results.machine.model}, load average (1/5/15 min) ` +
      `${load(results.machine.loadAverageStart)} at the start and ${load(results.machine.loadAverageEnd)} ` +
      `at the end; ${results.database.server}.`,
  );
  for (const section of SECTIONS) {
    const rows = results.rows.filter((row) => row.section === section.key);
    if (rows.length === 0) continue;
    out.push('', `## ${section.title}`, '', section.intro, '', rowTable(rows));
  }

  if (results.lighthouse.pages.length > 0 || results.lighthouse.error) {
    out.push('', '## Lighthouse (mobile preset, simulated throttling)', '');
    out.push(
      `${results.lighthouse.chromium}, ${results.lighthouse.preset}. The wizard step is measured logged in, with ` +
        'a report type chosen (session cookie and local draft set before the run).',
    );
    if (results.lighthouse.error) out.push('', `Lighthouse did not run: ${results.lighthouse.error}`);
    if (results.lighthouse.pages.length > 0) {
      out.push(
        '',
        table(
          ['page', 'performance', 'accessibility', 'LCP ms', 'FCP ms', 'TBT ms', 'CLS', 'JS transferred KB'],
          results.lighthouse.pages.map((page) => [
            `${page.name} (\`${page.path}\`)`,
            String(page.performance),
            String(page.accessibility),
            String(Math.round(page.lcpMs)),
            String(Math.round(page.fcpMs)),
            String(Math.round(page.tbtMs)),
            page.cls.toFixed(3),
            kb(page.scriptTransferBytes),
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
