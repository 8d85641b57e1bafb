import { reportFormSchema } from '@ansim/shared/report-form';
import pg from 'pg';
import { loadConfig } from '../apps/api/src/config.ts';
import { type Database, openDatabase } from '../apps/api/src/db/client.ts';
import { listCompanyReports, managerListQuery } from '../apps/api/src/domain/manager/list-reports.ts';
import { companyStats } from '../apps/api/src/domain/manager/stats.ts';
import { submitReport } from '../apps/api/src/domain/reports/submit-report.ts';
import { findSession, type SessionUser } from '../apps/api/src/domain/sessions/sessions.ts';
import { openText, sealWithIndex } from '../apps/api/src/encryption/codec.ts';
import { attachKeyring, resolveMasterKey } from '../apps/api/src/encryption/keyring.ts';

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

export function directList(
  deps: Awaited<ReturnType<typeof directDatabase>>,
  companyId: string,
  page: number,
  q?: string,
) {
  const query = managerListQuery.parse({ page: String(page), ...(q ? { q } : {}) });
  return () => listCompanyReports(deps.database, companyId, query).then(() => undefined);
}

export function directStats(deps: Awaited<ReturnType<typeof directDatabase>>, companyId: string) {
  return () => companyStats(deps.database, companyId).then(() => undefined);
}

async function resealCopies(client: pg.Client, database: Database, templateReportId: string) {
  const [template] = (
    await client.query<{ company_id: string; accused_name: string }>(
      'SELECT company_id, accused_name FROM reports WHERE id = $1',
      [templateReportId],
    )
  ).rows;
  if (!template) return;
  const name = await openText(database, 'reports.accused_name', templateReportId, template.accused_name);
  for (;;) {
    const { rows } = await client.query<{ id: string }>(
      'SELECT id FROM reports WHERE company_id = $1 AND accused_name = $2 AND id <> $3 LIMIT 5000',
      [template.company_id, template.accused_name, templateReportId],
    );
    if (rows.length === 0) return;
    const sealed = await Promise.all(
      rows.map((row) => sealWithIndex(database, template.company_id, 'reports.accused_name', row.id, name)),
    );
    await client.query(
      `UPDATE reports r SET accused_name = v.sealed, accused_name_index = v.index
         FROM unnest($1::uuid[], $2::text[], $3::text[]) AS v(id, sealed, index) WHERE r.id = v.id`,
      [rows.map((row) => row.id), sealed.map((value) => value.sealed), sealed.map((value) => value.index)],
    );
  }
}

/**
 * Cases in one company up to `total`, spread over a year and over every status, in one INSERT … SELECT from
 * generate_series. Every other column (the form above all, as the product stored it, encrypted or not) is
 * copied from a template report submitted through the API, so the rows are what the product itself writes.
 * A sealed value is bound to its row's id, so the copies of the columns a list opens (the accused name, with
 * its blind index) are then sealed again for each new row, as the product would have sealed them.
 */
export async function seedManyReports(
  url: string,
  templateReportId: string,
  total = 100_000,
  database?: Database,
): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const varied: Record<string, string> = {
      case_number: `'G' || lpad(i::text, 6, '0')`,
      report_type: `(ARRAY['anonym','brief','formal'])[1 + i % 3]`,
      status: `(ARRAY['received','investigating','action_taken','closed','dismissed'])[1 + i % 5]`,
      idempotency_key: 'NULL',
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
    const { rows: existing } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM reports WHERE company_id = (SELECT company_id FROM reports WHERE id = $1)',
      [templateReportId],
    );
    const count = total - (existing[0]?.n ?? 0);
    await client.query(
      `INSERT INTO reports (${names.map((name) => `"${name}"`).join(', ')})
       SELECT ${values.join(', ')}
       FROM (SELECT * FROM reports WHERE id = $1) AS t,
            (SELECT i, now() - (i % 365) * interval '1 day' - (i % 1440) * interval '1 minute' AS created
             FROM generate_series(1, $2::int) AS i) AS s`,
      [templateReportId, count],
    );
    if (database) await resealCopies(client, database, templateReportId);
    // What autovacuum would do on a live system: sets the visibility map so the stats are index-only scans.
    await client.query('VACUUM ANALYZE reports');
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM reports WHERE company_id = (SELECT company_id FROM reports WHERE id = $1)',
      [templateReportId],
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}
