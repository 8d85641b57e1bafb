import { randomUUID } from 'node:crypto';
import { reportFormSchema } from '@ansim/shared/report-form';
import pg from 'pg';
import { loadConfig } from '../apps/api/src/config.ts';
import { type Database, openDatabase } from '../apps/api/src/db/client.ts';
import { keptStatementName } from '../apps/api/src/db/kept-statements.ts';
import {
  encodeCursor,
  listCompanyReports,
  listQueries,
  managerListQuery,
} from '../apps/api/src/domain/manager/list-reports.ts';
import { companyStats, STATS_SQL, statsParams, statsRange } from '../apps/api/src/domain/manager/stats.ts';
import { listOperatorCompanies } from '../apps/api/src/domain/operator/companies.ts';
import { statsDimensions } from '../apps/api/src/domain/reports/stat-dimensions.ts';
import {
  insertReportStatement,
  normalizeReporterForm,
  numberReportStatement,
  submitReport,
} from '../apps/api/src/domain/reports/submit-report.ts';
import { findSession, type SessionUser } from '../apps/api/src/domain/sessions/sessions.ts';
import { openText, sealJson, sealText, sealWithIndex } from '../apps/api/src/encryption/codec.ts';
import { attachKeyring, resolveMasterKey } from '../apps/api/src/encryption/keyring.ts';
import { newCaseMail } from '../apps/api/src/mail/templates.ts';

/** The keys the bench server runs with; the direct side uses the same, so it does the same work. */
export const BENCH_SECRET_KEY = 'bench-secret-key-bench-secret-key-0123456789';
export const BENCH_ENCRYPTION_KEY = 'b3'.repeat(32);

/** A formal report of about 10 KB, the size of a detailed real one. */
export function tenKilobyteForm() {
  const sentence = '회의 중 여러 사람 앞에서 반복적으로 고성을 지르고 업무와 무관한 인신공격을 했습니다. ';
  const acts = Array.from({ length: 6 }, (_, i) => ({
    date: `2026-0${(i % 9) + 1}-1${i}`,
    location: '본사 3층 회의실',
    description: sentence.repeat(9),
    evidences: null,
  }));
  return reportFormSchema.parse({
    report_type: 'formal',
    reporter_type: 'victim',
    reporter_name: '김신고',
    reporter_department: '영업팀',
    perpetrator_name: '박행위',
    perpetrator_role: '팀장',
    relationship: '상급자',
    acts,
    harms: [{ type: 'mental', description: sentence.repeat(4), evidences: null }],
    wishes: ['investigation', 'separation'],
    protection_requests: ['separation'],
    extra_info: sentence.repeat(14),
  });
}

/** A short brief report (about 1.5 KB): the template of the 100,000 generated cases. */
export function typicalForm() {
  const form = tenKilobyteForm();
  return reportFormSchema.parse({
    ...form,
    report_type: 'brief',
    acts: form.acts.slice(0, 1).map((act) => ({ ...act, description: act.description.slice(0, 300) })),
    harms: form.harms.map((harm) => ({ ...harm, description: harm.description.slice(0, 200) })),
    extra_info: form.extra_info.slice(0, 200),
  });
}

/** Domain functions on their own pool: the same statements the API runs, without HTTP, session or CSRF. */
export async function directDatabase(url: string, max = 10) {
  const database = await openDatabase({ kind: 'postgres', url, max });
  const config = loadConfig({
    DATABASE_URL: url,
    SECRET_KEY: BENCH_SECRET_KEY,
    ENCRYPTION_KEY: BENCH_ENCRYPTION_KEY,
  });
  // The server seals report contents at rest; the direct side must do the same work to be its baseline.
  attachKeyring(database, resolveMasterKey(config));
  return { database, config };
}

export async function directSubmit(deps: Awaited<ReturnType<typeof directDatabase>>, reporter: SessionUser) {
  const form = tenKilobyteForm();
  return () => submitReport(deps, { kind: 'account', user: reporter }, form).then(() => undefined);
}

/** The session lookup behind `GET /api/v1/token/`. */
export function directSessionCheck(deps: Awaited<ReturnType<typeof directDatabase>>, sessionId: string) {
  return async () => {
    if (!(await findSession(deps.database, sessionId, deps.config))) throw new Error('no session');
  };
}

export function directStats(
  deps: Awaited<ReturnType<typeof directDatabase>>,
  viewer: { companyId: string; userId: string },
) {
  return () => companyStats(deps.database, viewer).then(() => undefined);
}

/** The operator's list of every company with its case counts (`GET /api/v1/operator/companies`). */
export function directOperatorCompanies(deps: Awaited<ReturnType<typeof directDatabase>>) {
  return () => listOperatorCompanies(deps.database).then(() => undefined);
}

/**
 * R-PERF-5: `total` reports for one company in one `INSERT … SELECT` over `generate_series`, spread over the
 * last 24 months, with every dimension of the statistics varied. Contents are a placeholder: the statistics
 * never read them. The statistics triggers are off during the insert and `report_stats_rebuild` counts
 * afterwards, as a bulk load would; the time reported includes the rebuild and the VACUUM ANALYZE.
 */
export async function seedStatsReports(url: string, companyId: string, total: number): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = Date.now();
    const phase = (name: string) =>
      console.info(`[bench] statistics seeding: ${name} at ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await client.query('ALTER TABLE reports DISABLE TRIGGER reports_stats_insert');
    try {
      await client.query(
        `INSERT INTO reports (company_id, report_type, case_number, form, status, accused_name,
           accused_department, relationship, outcome_finding, outcome_actions, outcome_at,
           ack_due_at, feedback_due_at, acknowledged_at, feedback_at, closed_at, created_at, updated_at)
         SELECT $1, (ARRAY['anonym','brief','formal'])[1 + i % 3], 'S' || lpad(i::text, 7, '0'), '{}'::jsonb,
           (ARRAY['received','investigating','action_taken','closed','dismissed'])[1 + i % 5], '',
           (ARRAY['영업팀','개발팀','인사팀','재무팀','생산1팀','생산2팀','고객지원팀','',
                  '마케팅팀','법무팀','구매팀','품질관리팀'])[1 + i % 12],
           (ARRAY['상급자','동료','하급자','고객·거래처','기타',''])[1 + i % 6],
           CASE WHEN i % 5 IN (2, 3) THEN (ARRAY['substantiated','partially_substantiated','not_substantiated'])[1 + i % 3] END,
           CASE WHEN i % 5 IN (2, 3) THEN (ARRAY['["warning"]','["reprimand","training"]','["none"]',
                  '["transfer","training"]','["suspension"]','["mediation"]','["pay_cut"]'])[1 + i % 7]::jsonb
                ELSE '[]'::jsonb END,
           CASE WHEN i % 5 IN (2, 3) THEN created + interval '25 days' END,
           created + interval '7 days', created + interval '90 days',
           -- A few of the newest cases are still waiting, so the overdue counts have something to find.
           CASE WHEN i % 5 = 0 AND i % 100 = 0 THEN NULL ELSE created + (i % 9) * interval '1 day' END,
           CASE WHEN i % 5 IN (2, 3) THEN created + interval '25 days' END,
           CASE WHEN i % 5 IN (3, 4) THEN created + (10 + i % 80) * interval '1 day' END,
           created, created
         FROM (SELECT i, now() - (i % 730) * interval '1 day' - (i % 1440) * interval '1 minute' AS created
               FROM generate_series(1, $2::int) AS i) AS s`,
        [companyId, total],
      );
    } finally {
      await client.query('ALTER TABLE reports ENABLE TRIGGER reports_stats_insert');
    }
    phase('rows inserted');
    await client.query('SELECT report_stats_rebuild($1::uuid)', [companyId]);
    phase('statistics rebuilt');
    await client.query('VACUUM ANALYZE reports');
    await client.query('VACUUM ANALYZE report_stat_counts');
    await client.query('VACUUM ANALYZE report_stat_durations');
    await client.query('VACUUM ANALYZE report_stat_waiting');
    await client.query('CHECKPOINT').catch(() => undefined);
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM reports WHERE company_id = $1',
      [companyId],
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

/** `EXPLAIN (ANALYZE, BUFFERS)` of each statistics query, with the parameters the API would pass. */
export async function explainStats(
  url: string,
  viewer: { companyId: string; userId: string },
): Promise<{ name: string; plan: string }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const params = statsParams(viewer, statsRange({}), Date.now());
    const plans: { name: string; plan: string }[] = [];
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${STATS_SQL}`,
      params,
    );
    plans.push({
      name: 'STATS_SQL (one statement), planned for its values',
      plan: rows.map((row) => row['QUERY PLAN']).join('\n'),
    });
    // What the API runs once PostgreSQL keeps the named statement's generic plan (docs/decisions/0012).
    await client.query('BEGIN');
    try {
      await client.query(`PREPARE stats_generic AS ${STATS_SQL}`);
      await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
      const values = params.map((value) => `'${String(value).replaceAll("'", "''")}'`).join(', ');
      const generic = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) EXECUTE stats_generic(${values})`,
      );
      plans.push({
        name: 'STATS_SQL, the generic plan kept for the named statement',
        plan: generic.rows.map((row) => row['QUERY PLAN']).join('\n'),
      });
    } finally {
      await client.query('ROLLBACK');
    }
    return plans;
  } finally {
    await client.end();
  }
}

/**
 * The list as a manager of the company reads it: the route's access condition (company, no conflict of
 * interest) is in the SQL, under an id that no exclusion names, as for a manager excluded from nothing.
 */
const managerOf = (companyId: string) => ({
  userId: '00000000-0000-4000-8000-000000000000',
  name: '',
  companyId,
  role: 'manager' as const,
});

/**
 * The list as the route runs it (same domain function, same SQL, the read's audit row included), with the query
 * string's parameters, each caller as one of the company's managers, as through the API.
 */
export function directList(
  deps: Awaited<ReturnType<typeof directDatabase>>,
  companyId: string,
  managerIds: string[],
  params: Record<string, string>,
) {
  const query = managerListQuery.parse(params);
  return (caller: number) =>
    listCompanyReports(
      deps.database,
      { ...managerOf(companyId), userId: managerIds[caller % managerIds.length]! },
      query,
    ).then(() => undefined);
}

/** The cursor the `next` link of page `page - 1` carries: where page `page` starts, under `params`' sort. */
export async function cursorForPage(
  deps: Awaited<ReturnType<typeof directDatabase>>,
  companyId: string,
  params: Record<string, string>,
  page: number,
): Promise<string> {
  const query = managerListQuery.parse({ ...params, page: String(page - 1) });
  const rows = await (await listQueries(deps.database, managerOf(companyId), query)).page;
  const last = rows[query.page_size - 1];
  if (!last) throw new Error(`no page ${page}`);
  return encodeCursor({ sort: query.sort, value: last.sortValue, id: last.id });
}

/** `EXPLAIN (ANALYZE, BUFFERS)` of the query the route runs for `params`: the page with its count. */
export async function explainList(
  deps: Awaited<ReturnType<typeof directDatabase>>,
  companyId: string,
  params: Record<string, string>,
): Promise<{ page: string }> {
  const query = managerListQuery.parse(params);
  const queries = await listQueries(deps.database, managerOf(companyId), query);
  const explain = async (built: { toSQL(): { sql: string; params: unknown[] } }) => {
    const { sql, params: values } = built.toSQL();
    const rows = await deps.database.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
      values,
    );
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  };
  return { page: await explain(queries.page) };
}

/**
 * The database's ceiling for `POST /api/v1/report/`: the statements submitReport() runs in its transaction, in
 * its order — the report with its first status and its protective measure, returning the company's handlers for
 * the conflict-of-interest check; the case counter, the case number and the handlers to tell of the case; a
 * new-case mail in the outbox for each handler, in one statement — with the very text and statement names the domain function
 * sends (`insertReportStatement`, `numberReportStatement`), sent straight on a pg pool with values sealed once
 * beforehand. What the API adds on top (HTTP, session, CSRF, validation, sealing, drizzle) is what the ratio
 * measures.
 */
export async function rawSubmit(url: string, database: Database, reporters: SessionUser[]) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const stored = normalizeReporterForm(tenKilobyteForm());
  const dimensions = statsDimensions(stored);
  const sealedFor = async (companyId: string) => {
    const templateId = crypto.randomUUID();
    return {
      form: await sealJson(database, companyId, 'reports.form', templateId, stored),
      accused: await sealWithIndex(
        database,
        companyId,
        'reports.accused_name',
        templateId,
        stored.perpetrator_name.trim(),
      ),
      accusedEmail: await sealWithIndex(
        database,
        companyId,
        'reports.accused_email',
        templateId,
        stored.perpetrator_email?.trim().toLowerCase() ?? '',
      ),
      measure: await sealText(database, companyId, 'protective_measures.detail', templateId, ''),
    };
  };
  const sealed = await Promise.all(
    reporters.map(async (reporter) => ({
      companyId: reporter.companyId!,
      reporterId: reporter.id,
      ...(await sealedFor(reporter.companyId!)),
    })),
  );
  // The new-case mail as the outbox holds it (sealed with the platform key), for companies with handlers.
  const mailId = crypto.randomUUID();
  const mail = newCaseMail({ caseNumber: '2026-0001', typeLabel: '정식 신고', url: 'http://127.0.0.1/' });
  const sealedMail = {
    to: await sealText(database, null, 'mail_outbox.to', mailId, 'manager@bench.example'),
    subject: await sealText(database, null, 'mail_outbox.subject', mailId, mail.subject),
    text: await sealText(database, null, 'mail_outbox.text', mailId, mail.text),
    html: await sealText(database, null, 'mail_outbox.html', mailId, mail.html),
  };
  let turn = 0;
  const task = async () => {
    const company = sealed[turn++ % sealed.length]!;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // The same two statements, with the same names, as submitReport() sends (decision 0024).
      const insert = insertReportStatement(database.db, {
        id: crypto.randomUUID(),
        companyId: company.companyId,
        reporterId: company.reporterId,
        reportType: stored.report_type,
        pendingCaseNumber: `pending-${crypto.randomUUID()}`,
        form: JSON.stringify(company.form),
        idempotencyKey: null,
        receiptHash: null,
        contactEmail: null,
        accusedName: company.accused.sealed,
        accusedNameIndex: company.accused.index,
        accusedEmail: company.accusedEmail.sealed,
        accusedEmailIndex: company.accusedEmail.index,
        ...dimensions,
        now: new Date().toISOString(),
        measureIds: [crypto.randomUUID()],
        measures: ['separation'],
        measureDetails: [company.measure],
      }).toSQL();
      const { rows: inserted } = await client.query<{ report_id: string }>({
        name: keptStatementName(insert.sql),
        text: insert.sql,
        values: insert.params,
      });
      const reportId = inserted[0]!.report_id;
      // excludeAccusedFromNewCase compares the handlers the insert returned with the accused person in the
      // application; these companies have none, so nothing is excluded.
      const year = new Date().getFullYear();
      const number = numberReportStatement(database.db, {
        companyId: company.companyId,
        year,
        prefix: `${year}-`,
        reportId,
      }).toSQL();
      const { rows: numbered } = await client.query<{ handler_emails: string[] }>({
        name: keptStatementName(number.sql),
        text: number.sql,
        values: number.params,
      });
      const handlers = numbered[0]!.handler_emails;
      // enqueueMails: one statement for every handler's new-case mail.
      if (handlers.length > 0) {
        await client.query(
          `INSERT INTO mail_outbox (id, template, "to", subject, text, html)
           SELECT id, 'new_case', $2, $3, $4, $5 FROM unnest($1::uuid[]) AS id`,
          [
            handlers.map(() => crypto.randomUUID()),
            sealedMail.to,
            sealedMail.subject,
            sealedMail.text,
            sealedMail.html,
          ],
        );
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  };
  return { task, close: () => pool.end() };
}

/** submitReport() for reporters taken in turn, e.g. one in each of many companies. */
export async function directSubmitEach(
  deps: Awaited<ReturnType<typeof directDatabase>>,
  reporters: SessionUser[],
) {
  const form = tenKilobyteForm();
  let turn = 0;
  return () =>
    submitReport(deps, { kind: 'account', user: reporters[turn++ % reporters.length]! }, form).then(
      () => undefined,
    );
}

/** Rows sealed and inserted per statement while seeding: the values travel as arrays, a few MB a batch. */
const SEED_BATCH = 10_000;

/**
 * Cases in one company up to `total`, spread over a year and over every status, by `INSERT … SELECT` in batches.
 * Every other column (the form above all, as the product stored it, encrypted or not) is copied from a template
 * report submitted through the API, so the rows are what the product itself writes. A sealed value is bound to
 * its row's id, so each copy gets its id and its accused name sealed (with its blind index) in this process
 * first, as the product would have sealed them, and the batch's statement takes them as arrays. As a bulk load
 * would, it inserts with the statistics trigger off and rebuilds the company's statistics once at the end.
 */
export async function seedManyReports(
  url: string,
  templateReportId: string,
  total: number,
  database: Database,
): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const varied: Record<string, string> = {
      // The product's shape (2026-K7M3QX, decision 0030): the row number in six Crockford base32 characters, so
      // each is unique; a submission during the bench takes a reference the company has not used.
      case_number: `to_char(created, 'YYYY') || '-' || (SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + (i >> (5 * (5 - d))) % 32, 1), '' ORDER BY d) FROM generate_series(0, 5) AS d)`,
      report_type: `(ARRAY['anonym','brief','formal'])[1 + i % 3]`,
      status: `(ARRAY['received','investigating','action_taken','closed','dismissed'])[1 + i % 5]`,
      idempotency_key: 'NULL',
      accused_name: 's.accused_name',
      accused_name_index: 's.accused_name_index',
      ack_due_at: `created + interval '7 days'`,
      feedback_due_at: `created + interval '90 days'`,
      acknowledged_at: `CASE WHEN i % 5 = 0 THEN NULL ELSE created + interval '2 days' END`,
      feedback_at: `CASE WHEN i % 5 IN (2, 3) THEN created + interval '20 days' ELSE NULL END`,
      closed_at: `CASE WHEN i % 5 IN (3, 4) THEN created + interval '30 days' ELSE NULL END`,
      created_at: 'created',
      updated_at: 'created',
    };
    const { rows: columns } = await client.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = 'reports' AND column_name <> 'id'
       ORDER BY ordinal_position`,
    );
    const names = columns.map((column) => column.column_name);
    const values = names.map((name) => varied[name] ?? `t."${name}"`);
    const [template] = (
      await client.query<{ company_id: string; accused_name: string }>(
        'SELECT company_id, accused_name FROM reports WHERE id = $1',
        [templateReportId],
      )
    ).rows;
    if (!template) throw new Error(`no template report ${templateReportId}`);
    const accusedName = await openText(
      database,
      'reports.accused_name',
      templateReportId,
      template.accused_name,
    );
    const companyCount = async () =>
      (
        await client.query<{ n: number }>('SELECT count(*)::int AS n FROM reports WHERE company_id = $1', [
          template.company_id,
        ])
      ).rows[0]?.n ?? 0;
    const count = total - (await companyCount());
    await client.query('ALTER TABLE reports DISABLE TRIGGER reports_stats_insert');
    try {
      for (let first = 1; first <= count; first += SEED_BATCH) {
        const ids = Array.from({ length: Math.min(SEED_BATCH, count - first + 1) }, () => randomUUID());
        const sealed: { sealed: string; index: string | null }[] = [];
        for (const id of ids)
          sealed.push(
            await sealWithIndex(database, template.company_id, 'reports.accused_name', id, accusedName),
          );
        await client.query(
          `INSERT INTO reports (id, ${names.map((name) => `"${name}"`).join(', ')})
           SELECT s.id, ${values.join(', ')}
           FROM (SELECT * FROM reports WHERE id = $1) AS t,
                (SELECT u.id, u.accused_name, u.accused_name_index, u.i,
                        now() - (u.i % 365) * interval '1 day' - (u.i % 1440) * interval '1 minute' AS created
                   FROM (SELECT v.*, $2::int + v.n::int - 1 AS i
                           FROM unnest($3::uuid[], $4::text[], $5::text[]) WITH ORDINALITY
                                  AS v(id, accused_name, accused_name_index, n)) AS u) AS s`,
          [
            templateReportId,
            first,
            ids,
            sealed.map((value) => value.sealed),
            sealed.map((value) => value.index),
          ],
        );
      }
    } finally {
      await client.query('ALTER TABLE reports ENABLE TRIGGER reports_stats_insert');
    }
    await client.query('SELECT report_stats_rebuild($1::uuid)', [template.company_id]);
    // What autovacuum would do on a live system: sets the visibility map so the stats are index-only scans.
    await client.query('VACUUM ANALYZE reports');
    // The bulk load's dirty pages written out now, not by the checkpointer during the first scenarios measured
    // (a role without the right to ask for a checkpoint measures without it).
    await client.query('CHECKPOINT').catch(() => undefined);
    return await companyCount();
  } finally {
    await client.end();
  }
}
