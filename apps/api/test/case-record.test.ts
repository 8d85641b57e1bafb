import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reports, users } from '../src/db/schema.ts';
import { anonymousDraft, createCompany, createManager, reportBody, upload } from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestClient, type TestContext } from './helpers.ts';

const HAS_PDFTOTEXT = fs.existsSync('/usr/bin/pdftotext');

/** The text of a PDF as a reader extracts it (poppler's pdftotext, an independent implementation). */
function pdfText(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-'));
  const file = path.join(dir, 'record.pdf');
  fs.writeFileSync(file, bytes);
  try {
    return execFileSync('/usr/bin/pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
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

  it.skipIf(!HAS_PDFTOTEXT)(
    'holds the company, case, report, evidence hash, history, outcome, printer and pages',
    async () => {
      await ctx.database.db
        .update(reports)
        .set({
          outcomeFinding: 'partially_substantiated',
          outcomeActions: ['warning', 'training'],
          outcomeAt: new Date(),
        })
        .where(eq(reports.id, namedCase.id));
      const status = await manager.request({
        method: 'PATCH',
        url: `/api/v1/manager/report/${namedCase.id}`,
        json: { status: 'investigating', note_for_reporter: '조사를 시작했습니다.' },
      });
      expect(status.statusCode).toBe(200);
      const text = pdfText(
        (await manager.get(`/api/v1/manager/report/${namedCase.id}/record.pdf`)).rawPayload,
      );
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
        '일부 인정',
        '경고, 교육',
        '출력: 김담당',
        '(KST)',
      ]) {
        expect(text, expected).toContain(expected);
      }
      // Every page is numbered out of the total (pdftotext drops the spaces around the slash).
      expect(text).toMatch(/1\s*\/\s*\d+\s*쪽/);
      // The reporter of a named case is named: the record is the company's own file of its procedure.
      expect(text).toContain('김실명');
    },
  );

  it.skipIf(!HAS_PDFTOTEXT)('holds no identity for an anonymous case', async () => {
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
