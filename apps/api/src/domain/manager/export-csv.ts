import {
  REPORT_STATUS_LABELS_KO,
  REPORT_TYPE_LABELS_KO,
  type ReportStatus,
  type ReportType,
} from '@ansim/shared/constants';
import type { Database } from '../../db/client.ts';
import type { HandlerContext } from './case-scope.ts';
import { allCompanyReports, type ManagerListQuery } from './list-reports.ts';

/** Excel reads a UTF-8 CSV as Korean only when it starts with a byte-order mark. */
const BOM = '\uFEFF';

/**
 * A cell safe for spreadsheets: quoted, and a leading = + - @ neutralised so a crafted accused-person name
 * cannot run as a formula on a manager's machine.
 */
export function csvCell(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${guarded.replace(/"/g, '""')}"`;
}

function seoulDate(iso: string): string {
  return new Date(new Date(iso).getTime() + 9 * 3600 * 1000).toISOString().slice(0, 10);
}

export async function* companyReportsCsv(
  database: Database,
  handler: HandlerContext,
  query: ManagerListQuery,
): AsyncGenerator<string> {
  const header = [
    '사건번호',
    '신고 유형',
    '처리 상태',
    '피신고인',
    '접수일',
    '최근 변경일',
    '확인 기한',
    '피드백 기한',
    '기한 초과',
  ];
  yield `${BOM}${header.map(csvCell).join(',')}\r\n`;
  for await (const row of allCompanyReports(database, handler, query)) {
    const overdue = [
      row.is_ack_overdue ? '확인 기한 초과' : '',
      row.is_feedback_overdue ? '피드백 기한 초과' : '',
    ]
      .filter(Boolean)
      .join(', ');
    const cells = [
      row.case_number,
      REPORT_TYPE_LABELS_KO[row.report_type as ReportType] ?? row.report_type,
      REPORT_STATUS_LABELS_KO[row.status as ReportStatus] ?? row.status,
      row.accused_name,
      seoulDate(row.created_at),
      seoulDate(row.updated_at),
      seoulDate(row.ack_due_at),
      seoulDate(row.feedback_due_at),
      overdue,
    ];
    yield `${cells.map(csvCell).join(',')}\r\n`;
  }
}
