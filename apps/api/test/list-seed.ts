import type { Database } from '../src/db/client.ts';
import { sealWithIndex } from '../src/encryption/codec.ts';

/**
 * `total` cases in one company in one INSERT … SELECT: spread over a year and over every status and type, with
 * 500 different accused names (blind indexes) and case numbers of the product's shape (2026-000123). The rows
 * carry no real content: they exist so the planner sees a realistic company when a test reads its plans. Every
 * 50th case names `accusedName` in its blind index (the name itself is not stored), so a search finds them.
 * `start` numbers the cases of a second call after those of the first.
 */
export async function seedCompanyReports(
  database: Database,
  companyId: string,
  total: number,
  options: { start?: number; accusedName?: string } = {},
): Promise<void> {
  const { index } = await sealWithIndex(
    database,
    companyId,
    'reports.accused_name',
    crypto.randomUUID(),
    options.accusedName ?? '박행위',
  );
  await database.query(
    `INSERT INTO reports (company_id, report_type, case_number, form, status, accused_name, accused_name_index,
                          ack_due_at, feedback_due_at, acknowledged_at, feedback_at, closed_at, created_at, updated_at)
     SELECT $1, (ARRAY['anonym','brief','formal'])[1 + i % 3], '2026-' || lpad(i::text, 6, '0'), '{}'::jsonb,
            (ARRAY['received','investigating','action_taken','closed','dismissed'])[1 + i % 5], '',
            CASE WHEN i % 50 = 0 THEN $3 ELSE 'seed-index-' || (i % 500) END, created + interval '7 days', created + interval '90 days',
            CASE WHEN i % 5 = 0 THEN NULL ELSE created + interval '2 days' END,
            CASE WHEN i % 5 IN (2, 3) THEN created + interval '20 days' ELSE NULL END,
            CASE WHEN i % 5 IN (3, 4) THEN created + interval '30 days' ELSE NULL END,
            created, created + (i % 7) * interval '1 hour'
     FROM (SELECT i, now() - (i % 365) * interval '1 day' - (i % 1440) * interval '1 minute' AS created
           FROM generate_series($4::int, $4::int + $2::int - 1) AS i) AS s`,
    [companyId, total, index, options.start ?? 1],
  );
  await database.query('VACUUM ANALYZE reports');
}
