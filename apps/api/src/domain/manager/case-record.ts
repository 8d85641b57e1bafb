import { createRequire } from 'node:module';
import { REPORT_STATUS_LABELS_KO, REPORT_TYPE_LABELS_KO } from '@ansim/shared/constants';
import {
  CASE_ACTION_LABELS_KO,
  CASE_FINDING_LABELS_KO,
  type CaseAction,
  type CaseFinding,
} from '@ansim/shared/outcomes';
import {
  DEFENDANT_TRUTH_LABELS_KO,
  HARM_TYPE_LABELS_KO,
  PROTECTION_LABELS_KO,
  REPORTER_KIND_LABELS_KO,
  WISH_LABELS_KO,
} from '@ansim/shared/report-form';
import { eq, inArray } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import type { Database } from '../../db/client.ts';
import { companies, protectiveMeasures, reports } from '../../db/schema.ts';
import { openText } from '../../encryption/codec.ts';
import { formatSeoul } from '../../lib/seoul-time.ts';
import type { HandlerContext } from './case-scope.ts';
import { caseFileDigests, getManagerCase, type ManagerCase } from './case-view.ts';

// Pretendard (SIL Open Font License) from npm: the PDF embeds the glyphs it uses, so the record reads the same
// on any machine, including ones without a Korean font.
const require = createRequire(import.meta.url);
const FONT_REGULAR = require.resolve('pretendard/dist/public/static/alternative/Pretendard-Regular.ttf');
const FONT_BOLD = require.resolve('pretendard/dist/public/static/alternative/Pretendard-Bold.ttf');

const label = <K extends string>(labels: Record<K, string>, value: string) =>
  (labels as Record<string, string>)[value] ?? value;

export interface CaseRecordInput {
  companyName: string;
  view: ManagerCase;
  /** The SHA-256 of each listed file's delivered bytes, by file id (the case view shows none when anonymous). */
  digests: Map<string, string>;
  outcome: { finding: CaseFinding | null; actions: CaseAction[]; summary: string; at: Date | null };
  /** The reporter's opinion on each measure, by measure id (76-3 ④). */
  opinions: Map<string, { opinion: string; at: Date | null }>;
  printedBy: string;
  printedAt: Date;
}

/** Everything the record holds, read for one handler through the same scoping as the case page. */
export async function loadCaseRecord(
  database: Database,
  handler: HandlerContext,
  reportId: string,
  printedAt = new Date(),
): Promise<CaseRecordInput> {
  const view = await getManagerCase(database, handler, reportId);
  const [[company], [row], measureRows, digests] = await Promise.all([
    database.db.select({ name: companies.name }).from(companies).where(eq(companies.id, handler.companyId)),
    database.db
      .select({
        finding: reports.outcomeFinding,
        actions: reports.outcomeActions,
        summary: reports.outcomeSummary,
        at: reports.outcomeAt,
      })
      .from(reports)
      .where(eq(reports.id, reportId)),
    view.measures.length
      ? database.db
          .select({
            id: protectiveMeasures.id,
            opinion: protectiveMeasures.reporterOpinion,
            at: protectiveMeasures.reporterOpinionAt,
          })
          .from(protectiveMeasures)
          .where(
            inArray(
              protectiveMeasures.id,
              view.measures.map((measure) => measure.id),
            ),
          )
      : Promise.resolve([]),
    caseFileDigests(database, reportId),
  ]);
  const opinions = new Map<string, { opinion: string; at: Date | null }>();
  for (const measure of measureRows) {
    opinions.set(measure.id, {
      opinion: await openText(database, 'protective_measures.reporter_opinion', measure.id, measure.opinion),
      at: measure.at,
    });
  }
  return {
    companyName: company?.name ?? '',
    view,
    digests,
    outcome: {
      finding: row?.finding ?? null,
      actions: (row?.actions ?? []) as CaseAction[],
      summary: row?.summary ? await openText(database, 'reports.outcome_summary', reportId, row.summary) : '',
      at: row?.at ?? null,
    },
    opinions,
    printedBy: handler.name,
    printedAt,
  };
}

const MARGIN = 56;
const FOOTER_SPACE = 36;

/**
 * The formal investigation record (조사보고서) of one case as a PDF. An anonymous case holds no identity: the
 * reporter is 신고인, evidence keeps its generic names, and nothing of the reporter's account exists to print.
 */
export function renderCaseRecord(input: CaseRecordInput): Promise<Buffer> {
  const { view } = input;
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN + FOOTER_SPACE, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: {
      // Document metadata is seen by anyone the file is forwarded to: the case number only, no names.
      Title: `조사보고서 ${view.case_number}`,
      Author: '',
      Creator: '안심신고',
      Producer: '안심신고',
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', FONT_REGULAR);
  doc.registerFont('bold', FONT_BOLD);

  const width = doc.page.width - MARGIN * 2;
  const heading = (text: string) => {
    doc.moveDown(0.8).font('bold').fontSize(13).fillColor('#111').text(text, { width });
    doc
      .moveTo(MARGIN, doc.y + 2)
      .lineTo(MARGIN + width, doc.y + 2)
      .lineWidth(0.5)
      .strokeColor('#999')
      .stroke();
    doc.moveDown(0.4).font('regular').fontSize(10).fillColor('#222');
  };
  const field = (name: string, value: string | null | undefined) => {
    doc
      .font('bold')
      .text(`${name}: `, { continued: true, width })
      .font('regular')
      .text(value?.trim() ? value : '—', { width });
  };
  const paragraph = (text: string) =>
    doc
      .font('regular')
      .text(text.trim() || '—', { width })
      .moveDown(0.3);
  const when = (iso: string | Date | null) => (iso ? formatSeoul(iso) : '—');

  doc.font('bold').fontSize(18).text('직장 내 괴롭힘 조사보고서', { align: 'center', width });
  doc.moveDown(0.3).font('regular').fontSize(10).fillColor('#444');
  doc.text(`${input.companyName} · 사건번호 ${view.case_number}`, { align: 'center', width });
  doc.fillColor('#222').moveDown(1);

  heading('1. 사건 개요');
  field('회사', input.companyName);
  field('사건번호', view.case_number);
  field('신고 유형', label(REPORT_TYPE_LABELS_KO, view.report_type));
  field('처리 상태', label(REPORT_STATUS_LABELS_KO, view.status));
  field('접수일시', when(view.created_at));
  field('최초 확인', when(view.acknowledged_at));
  field('종결일시', when(view.closed_at));
  field('신고인', view.reporter ? view.reporter.name : '신고인 (익명 신고: 신원 정보 없음)');

  const form = view.form;
  heading('2. 신고 내용');
  if (view.report_type !== 'anonym') {
    field('신고인 구분', form.reporter_type ? label(REPORTER_KIND_LABELS_KO, form.reporter_type) : '');
    field('신고인 소속·직위', [form.reporter_department, form.reporter_role].filter(Boolean).join(' / '));
  }
  field('피신고인', form.perpetrator_name);
  field(
    '피신고인 소속·직위',
    [form.perpetrator_department, form.perpetrator_role].filter(Boolean).join(' / '),
  );
  field('관계', form.relationship);
  form.acts.forEach((act, index) => {
    doc.moveDown(0.3);
    field(`행위 ${index + 1}`, [act.date, act.location].filter(Boolean).join(' · '));
    paragraph(act.description);
  });
  for (const harm of form.harms) field(label(HARM_TYPE_LABELS_KO, harm.type) || '피해', harm.description);
  if (form.wishes.length)
    field('원하는 조치', form.wishes.map((wish) => label(WISH_LABELS_KO, wish)).join(', '));
  if (form.wish_etc) field('기타 요청', form.wish_etc);
  if (form.extra_info) field('추가 정보', form.extra_info);

  heading('3. 진술');
  if (view.statements.length === 0) paragraph('제출된 진술이 없습니다.');
  for (const statement of view.statements) {
    const kind = statement.kind === 'defendant' ? '피신고인 진술' : '참고인 진술';
    doc.moveDown(0.3);
    field(kind, `${statement.name} · ${when(statement.created_at)}`);
    const truth = String(statement.form.defendant_truth ?? '');
    if (truth) field('사실 인정 여부', label(DEFENDANT_TRUTH_LABELS_KO, truth));
    for (const key of [
      'defendant_true_part',
      'defendant_false_part',
      'defendant_opinion',
      'defendant_extra_info',
      'reference_witnessed',
      'reference_memory',
      'reference_opinion',
    ] as const) {
      const value = statement.form[key];
      if (typeof value === 'string' && value.trim()) paragraph(value);
    }
    field('SHA-256', statement.sha256);
  }

  heading('4. 증거 목록');
  if (view.files.length === 0) paragraph('첨부된 증거가 없습니다.');
  view.files.forEach((file, index) => {
    field(`${index + 1}. ${file.name}`, `${file.content_type}, ${file.size.toLocaleString('ko-KR')} 바이트`);
    doc
      .font('regular')
      .fontSize(8)
      .text(`SHA-256 ${input.digests.get(file.id) ?? ''}`, { width })
      .fontSize(10)
      .moveDown(0.2);
  });

  heading('5. 처리 경과');
  for (const entry of view.history) {
    const from = entry.from_status ? label(REPORT_STATUS_LABELS_KO, entry.from_status) : '';
    const to = label(REPORT_STATUS_LABELS_KO, entry.to_status);
    field(
      when(entry.created_at),
      `${from ? `${from} → ` : ''}${to}${entry.actor_name ? ` (${entry.actor_name})` : ''}`,
    );
    if (entry.note_for_reporter) paragraph(`신고인에게: ${entry.note_for_reporter}`);
    if (entry.internal_note) paragraph(`내부 메모: ${entry.internal_note}`);
  }

  heading('6. 보호 조치와 신고인 의견 (근로기준법 제76조의3 ③④)');
  if (view.measures.length === 0) paragraph('요청되거나 제안된 조치가 없습니다.');
  for (const measure of view.measures) {
    doc.moveDown(0.3);
    field(
      '조치',
      `${label(PROTECTION_LABELS_KO, measure.measure)}${measure.detail ? ` (${measure.detail})` : ''}`,
    );
    const consent =
      measure.reporter_consent === null ? '의견 없음' : measure.reporter_consent ? '동의' : '반대';
    const opinion = input.opinions.get(measure.id);
    field('신고인 의견', `${consent}${opinion?.at ? ` · ${when(opinion.at)}` : ''}`);
    if (opinion?.opinion) paragraph(opinion.opinion);
    const decision = { pending: '검토 중', granted: '시행', refused: '시행하지 않음' }[measure.decision];
    field('결정', `${decision}${measure.decided_at ? ` · ${when(measure.decided_at)}` : ''}`);
    if (measure.reason) paragraph(`사유: ${measure.reason}`);
  }

  heading('7. 조사 결과와 조치 (근로기준법 제76조의3 ⑤)');
  if (!input.outcome.finding) paragraph('아직 조사 결과가 기록되지 않았습니다.');
  else {
    field('판단', label(CASE_FINDING_LABELS_KO, input.outcome.finding));
    field('조치', input.outcome.actions.map((action) => label(CASE_ACTION_LABELS_KO, action)).join(', '));
    field('기록일시', when(input.outcome.at));
    paragraph(input.outcome.summary);
  }

  const range = doc.bufferedPageRange();
  const printed = `출력: ${input.printedBy} · ${formatSeoul(input.printedAt)}`;
  for (let page = range.start; page < range.start + range.count; page++) {
    doc.switchToPage(page);
    const y = doc.page.height - MARGIN - 12;
    // Writing below the bottom margin would start a new page: lift the margin while the footer is drawn.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('regular').fontSize(8).fillColor('#666');
    doc.text(`${input.companyName} · ${view.case_number} · ${printed}`, MARGIN, y, { width, align: 'left' });
    doc.text(`${page + 1} / ${range.count} 쪽`, MARGIN, y, { width, align: 'right' });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}
