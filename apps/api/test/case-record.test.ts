import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, type TestContext as VitestContext } from 'vitest';
import { reports, users } from '../src/db/schema.ts';
import {
  anonymousDraft,
  createCompany,
  createManager,
  invitationTokenFor,
  inviteeClient,
  reportBody,
  upload,
} from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestClient, type TestContext } from './helpers.ts';

const PDFTOTEXT = '/usr/bin/pdftotext';

/**
 * Skips a test that reads the PDF's text when pdftotext is not installed. On CI (`CI=true`) its absence is an
 * error, not a reason to skip: the independent reading is what shows the record holds the case.
 */
function requirePdftotext(context: VitestContext): void {
  if (fs.existsSync(PDFTOTEXT)) return;
  if (process.env.CI === 'true')
    throw new Error(`pdftotext is missing at ${PDFTOTEXT}: install poppler-utils`);
  context.skip();
}

/** The text of a PDF as a reader extracts it (poppler's pdftotext, an independent implementation). */
function pdfText(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-'));
  const file = path.join(dir, 'record.pdf');
  fs.writeFileSync(file, bytes);
  try {
    return execFileSync(PDFTOTEXT, ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

let ctx: TestContext;
let manager: TestClient;
let otherManager: TestClient;
let member: TestClient;
let namedCase: { id: string; caseNumber: string };
let anonymousCase: { id: string; caseNumber: string };

async function caseNumberOf(id: string): Promise<string> {
  const [row] = await ctx.database.db
    .select({ n: reports.caseNumber })
    .from(reports)
    .where(eq(reports.id, id));
  return row!.n;
}

beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '기록 주식회사', 'record.example');
  await createCompany(ctx, '남의 주식회사', 'other.example');
  manager = await createManager(ctx, 'hr@record.example');
  otherManager = await createManager(ctx, 'hr@other.example');
  member = await registerAndLogin(ctx, 'kim@record.example', { name: '김실명' });
  const file = (
    await upload(member, 'memo.txt', Buffer.from('회의 메모: 10월 1일 고성'), 'text/plain')
  ).json();
  const named = await member.post(
    '/api/v1/report/',
    reportBody('formal', {
      acts: [
        {
          date: '2026-10-01',
          location: '3층 회의실',
          description: '회의 중 반복적인 고성',
          evidences: [file.id],
        },
      ],
    }),
  );
  expect(named.statusCode).toBe(201);
  namedCase = { id: named.json().id, caseNumber: await caseNumberOf(named.json().id) };
  const draft = await anonymousDraft(
    ctx,
    await registerAndLogin(ctx, 'quiet@record.example', { name: '이익명' }),
  );
  const anonymous = await draft.post('/api/v1/report/', reportBody('anonym'));
  expect(anonymous.statusCode).toBe(201);
  anonymousCase = { id: anonymous.json().id, caseNumber: await caseNumberOf(anonymous.json().id) };
});
afterAll(() => ctx.close());

describe('GET /api/v1/manager/report/{id}/record.pdf', () => {
  it('is a real PDF with an embedded Korean font, named for the case', async () => {
    const response = await manager.get(`/api/v1/manager/report/${namedCase.id}/record.pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(String(response.headers['content-disposition'])).toContain(namedCase.caseNumber);
    const bytes = response.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.toString('latin1')).toMatch(/\/FontFile2/);
    expect(bytes.toString('latin1')).toMatch(/Pretendard/);
  });

  it('holds the company, case, report, statements, evidence hash, history, measures with the reporter’s opinions, outcome, printer and pages', async (context) => {
    requirePdftotext(context);
    const caseUrl = `/api/v1/manager/report/${namedCase.id}`;
    // The reporter objects to one measure they asked for, in their own words, and agrees to the other.
    const measures = (await member.get(`/api/v1/report/${namedCase.id}`)).json().measures as {
      id: string;
      measure: string;
    }[];
    const separation = measures.find((measure) => measure.measure === 'separation')!;
    const leave = measures.find((measure) => measure.measure === 'paid_leave')!;
    for (const [measure, answer] of [
      [separation, { consent: false, opinion: '부서를 옮기면 신고 사실이 드러날까 걱정됩니다.' }],
      [leave, { consent: true, opinion: '' }],
    ] as const) {
      const answered = await member.post(
        `/api/v1/report/${namedCase.id}/measures/${measure.id}/opinion`,
        answer,
      );
      expect(answered.statusCode).toBe(200);
    }
    // The accused person gives a statement through the mailed link.
    const invited = await manager.post(`${caseUrl}/invitations`, { invitations: [{ kind: 'defendant' }] });
    expect(invited.statusCode).toBe(201);
    const invitee = inviteeClient(ctx, await invitationTokenFor(ctx, 'accused@a.example', 'defendant'));
    expect((await invitee.post('/api/v1/invitation/acknowledge')).statusCode).toBe(200);
    const statement = await invitee.post('/api/v1/report/', {
      report_type: 'defendant',
      reporter_name: '박행위',
      reporter_role: '팀장',
      defendant_truth: 'deny',
      defendant_true_part: '',
      defendant_false_part: '고성을 지른 적이 없습니다.',
      defendant_opinion: '회의록을 확인해 주십시오.',
    });
    expect(statement.statusCode).toBe(201);
    const statementHash = statement.json().receipt as string;
    // The outcome goes through the route the case page uses, as a handler records it.
    const status = async (json: Record<string, unknown>) => {
      const response = await manager.request({ method: 'PATCH', url: caseUrl, json });
      expect(response.statusCode, response.body).toBe(200);
    };
    await status({ status: 'investigating', note_for_reporter: '조사를 시작했습니다.' });
    await status({
      status: 'action_taken',
      outcome: {
        finding: 'partially_substantiated',
        actions: ['warning', 'training'],
        summary: '고성 일부가 확인되어 경고와 교육을 했습니다.',
      },
    });

    const text = pdfText((await manager.get(`${caseUrl}/record.pdf`)).rawPayload);
    // pdftotext breaks long lines where it likes: compare without any whitespace.
    const flat = text.replace(/\s+/g, '');
    const sha = createHash('sha256').update('회의 메모: 10월 1일 고성').digest('hex');
    for (const expected of [
      '직장 내 괴롭힘 조사보고서',
      '기록 주식회사',
      namedCase.caseNumber,
      '정식 신고',
      '박행위',
      '회의 중 반복적인 고성',
      sha,
      '조사 중',
      '조사를 시작했습니다.',
      '조치 완료',
      '출력: 김담당',
      '(KST)',
    ]) {
      expect(text, expected).toContain(expected);
    }
    for (const expected of [
      // The statements, each with its hash.
      '3. 진술',
      '피신고인 진술: 박행위',
      '사실 인정 여부: 부인',
      '고성을 지른 적이 없습니다.',
      '회의록을 확인해 주십시오.',
      statementHash,
      // The measures with the reporter's opinions (76-3 ③④).
      '6. 보호 조치와 신고인 의견',
      '조치: 행위자와의 분리',
      '신고인 의견: 반대',
      '부서를 옮기면 신고 사실이 드러날까 걱정됩니다.',
      '조치: 유급휴가',
      '신고인 의견: 동의',
      // The outcome recorded through the API.
      '판단: 일부 인정',
      '조치: 경고, 교육',
      '고성 일부가 확인되어 경고와 교육을 했습니다.',
    ]) {
      expect(flat, expected).toContain(expected.replace(/\s+/g, ''));
    }
    expect(flat).not.toContain('제출된진술이없습니다');
    expect(flat).not.toContain('아직조사결과가기록되지않았습니다');
    // Every page is numbered out of the total (pdftotext drops the spaces around the slash).
    expect(text).toMatch(/1\s*\/\s*\d+\s*쪽/);
    // The reporter of a named case is named: the record is the company's own file of its procedure.
    expect(text).toContain('김실명');
  });

  it('holds no identity for an anonymous case', async (context) => {
    requirePdftotext(context);
    const response = await manager.get(`/api/v1/manager/report/${anonymousCase.id}/record.pdf`);
    expect(response.statusCode).toBe(200);
    const text = pdfText(response.rawPayload);
    expect(text).toContain(anonymousCase.caseNumber);
    expect(text).toContain('익명 신고: 신원 정보 없음');
    expect(text).not.toContain('이익명');
    expect(text).not.toContain('quiet@record.example');
    // Nor does the file's metadata, which travels with every forwarded copy.
    expect(response.rawPayload.toString('latin1')).not.toMatch(/이익명|quiet@/);
  });

  it('is scoped like every case route and recorded in the audit log', async () => {
    expect((await otherManager.get(`/api/v1/manager/report/${namedCase.id}/record.pdf`)).statusCode).toBe(
      404,
    );
    expect((await member.get(`/api/v1/manager/report/${namedCase.id}/record.pdf`)).statusCode).toBe(403);
    const investigator = await createManager(ctx, 'inv@record.example');
    await ctx.database.db
      .update(users)
      .set({ role: 'investigator' })
      .where(eq(users.email, 'inv@record.example'));
    expect((await investigator.get(`/api/v1/manager/report/${namedCase.id}/record.pdf`)).statusCode).toBe(
      404,
    );
    const audit = await ctx.database.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE target_id = $1 AND action = 'report.record'",
      [namedCase.id],
    );
    expect(audit.length).toBeGreaterThan(0);
  });
});
